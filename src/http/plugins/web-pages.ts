import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { notFound } from '../../errors/app-error.js';
import { OPERATOR_CONTENT_SECURITY_POLICY, WEB_CONTENT_SECURITY_POLICY } from './response-headers.js';

/** Where `vite build` puts the console and the hosted form (the same from src/ and dist/). */
export const WEB_BUILD_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

export const CONSOLE_PATH = '/app/';
export const FORMS_PATH = '/forms/';
export const OPERATOR_PATH = '/app/operator';

/**
 * The web console (`/app/`, a single-page app: every path under it answers its page), the
 * operator page (`/app/operator`, which designs record types and PDF templates with the operator
 * token) and the hosted record form (`/forms/`), built by `npm ci` into dist/web. The pages are never cached,
 * so a new release shows at once; the assets they load carry content hashes and are kept by
 * browsers for a year. Both run under a strict Content-Security-Policy: nothing but this origin.
 */
export async function registerWebPages(app: FastifyInstance): Promise<void> {
  const consolePage = readPage('app/index.html');
  const formPage = readPage('forms/index.html');
  const operatorPage = readPage('operator/index.html');

  await app.register(fastifyStatic, {
    root: `${WEB_BUILD_DIR}assets`,
    prefix: '/assets/',
    index: false,
    list: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: '365d',
    schemaHide: true,
  });

  const servePage =
    (page: string | undefined, what: string, contentSecurityPolicy = WEB_CONTENT_SECURITY_POLICY) =>
    async (_request: unknown, reply: FastifyReply) => {
      if (page === undefined) throw notFound(`the ${what} is not built: run \`npm run build\``);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', contentSecurityPolicy)
        .send(page);
    };
  const hidden = { schema: { hide: true } };
  app.get('/app', hidden, async (_request, reply) => reply.redirect(CONSOLE_PATH));
  app.get('/app/', hidden, servePage(consolePage, 'web console'));
  app.get('/app/*', hidden, servePage(consolePage, 'web console'));
  const serveOperatorPage = servePage(operatorPage, 'operator page', OPERATOR_CONTENT_SECURITY_POLICY);
  app.get(OPERATOR_PATH, hidden, serveOperatorPage);
  app.get(`${OPERATOR_PATH}/`, hidden, serveOperatorPage);
  app.get(`${OPERATOR_PATH}/*`, hidden, serveOperatorPage);
  app.get('/forms', hidden, async (_request, reply) => reply.redirect(FORMS_PATH));
  app.get('/forms/', hidden, servePage(formPage, 'hosted record form'));
  app.get('/', hidden, async (_request, reply) => reply.redirect(consolePage === undefined ? '/docs' : CONSOLE_PATH));
}

function readPage(path: string): string | undefined {
  const file = `${WEB_BUILD_DIR}${path}`;
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
