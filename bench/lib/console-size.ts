import { request } from 'node:http';
import type { ScenarioRow } from './report.js';

/** The target of issue 15: the console's first load, compressed. */
const FIRST_LOAD_TARGET_BYTES = 250 * 1024;

/** The bytes of an answer as they cross the wire (compressed), without decoding them. */
function wireBytes(url: string, encoding: 'gzip' | 'br'): Promise<{ status: number; bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, bytes: body.length, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The JavaScript a browser fetches to show `/app/`: the page's module scripts and the modules it
 * preloads (Vite lists every static import there; routes loaded later are not counted).
 */
export async function consoleFirstLoad(baseUrl: string): Promise<ScenarioRow[]> {
  const page = await fetch(`${baseUrl}/app/`).then((answer) => answer.text());
  const scripts = [...page.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+)"/g)].map((match) => match[1]!);
  const styles = [...page.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
  if (scripts.length === 0) throw new Error('the console page names no script: is dist/web built?');
  const sum = async (paths: string[], encoding: 'gzip' | 'br') => {
    let total = 0;
    for (const path of paths) {
      const answer = await wireBytes(new URL(path, baseUrl).toString(), encoding);
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
      total += answer.bytes;
    }
    return total;
  };
  const gzip = await sum(scripts, 'gzip');
  const brotli = await sum(scripts, 'br');
  const css = await sum(styles, 'gzip');
  return [
    {
      name: 'console first load: JavaScript, gzip',
      value: gzip / 1024,
      unit: 'KB',
      detail: `${scripts.length} files; brotli ${(brotli / 1024).toFixed(1)} KB; CSS ${(css / 1024).toFixed(1)} KB gzip`,
      target: '< 250 KB',
      met: gzip < FIRST_LOAD_TARGET_BYTES,
    },
  ];
}
