import type { CliCommand } from '../command.js';

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'wrs serve',
  summary: 'run migrations, seed demo data into an empty development database, and serve the API',
  async run() {
    const { serveProcess } = await import('../serve/serve-process.js');
    return serveProcess();
  },
};
