import { createAppContext } from '../../app-context.js';
import { buildApp } from '../../http/app.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { printWelcome } from '../welcome.js';

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'wrs serve',
  summary: 'run migrations, seed demo data into an empty development database, and serve the API',
  async run() {
    const { config, devSecrets } = cliConfig();
    const ctx = await createAppContext(config);
    const app = await buildApp(ctx);
    const address = await app.listen({ host: config.host, port: config.port });

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      await app.close();
      await ctx.close();
      process.exit(0);
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));

    if (config.env !== 'production') await printWelcome(ctx, address, devSecrets);
    return new Promise<void>(() => undefined);
  },
};
