import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { DEMO_COMPANY_ID } from '../welcome.js';

export const seedDemoCommand: CliCommand = {
  name: 'seed demo',
  usage: 'wrs seed demo [--company C]',
  summary: `add the demo data (company "${DEMO_COMPANY_ID}" by default); what the company already has is kept`,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { company: { type: 'string' } } });
    const companyId = values.company ?? DEMO_COMPANY_ID;
    const { config } = cliConfig('may-create');
    const [{ createAppContext }, { seedDemo }] = await Promise.all([import('../../app-context.js'), import('../../demo/seed-demo.js')]);
    const ctx = await createAppContext(config);
    try {
      const stored = await seedDemo(ctx, companyId);
      const summary = Object.entries(stored).map(([name, count]) => `${count} ${name}`);
      console.log(`demo data for company "${companyId}": added ${summary.join(', ')}`);
    } finally {
      await ctx.close();
    }
  },
};
