import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LobKeyBody } from '../../contracts/lob-key.js';
import type { ProviderStatus } from '../../domain/checks/provider-settings.js';
import { bodyChecker } from '../../http/body-check.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { InputFileError } from '../input-file.js';
import { COMPANY_AND_JSON, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

/** A key file is at most a line or two; anything larger is not a key. */
const MAX_KEY_FILE_BYTES = 4096;

/**
 * The key never travels as a command-line argument (other users see those in `ps`): it comes
 * from a file, or from standard input (`--key-file -`, or stdin piped without --key-file).
 * Surrounding whitespace (the file's final newline) is not part of it.
 */
function readKey(keyFile: string | undefined): string {
  const source = keyFile === undefined || keyFile === '-' ? 0 : keyFile;
  if (source === 0 && process.stdin.isTTY) throw new UsageError('pipe the key on standard input, or name a file with --key-file');
  let bytes: Buffer;
  try {
    bytes = readFileSync(source);
  } catch (error) {
    throw new InputFileError(`cannot read the key from ${source === 0 ? 'standard input' : source}: ${(error as Error).message}`);
  }
  if (bytes.length > MAX_KEY_FILE_BYTES) throw new InputFileError(`the key file holds ${bytes.length} bytes: that is not one key`);
  return bytes.toString('utf8').trim();
}

const describeStatus = (status: ProviderStatus): string => {
  const { company_id: company, lob } = status;
  if (status.key_source === 'company') {
    return `company "${company}" uses Lob with its own key (ending ${lob.key_last4}, set ${lob.updated_at})`;
  }
  if (status.key_source === 'global') return `company "${company}" uses Lob with the service's LOB_API_KEY (no key of its own)`;
  return `company "${company}" uses the embedded provider (no Lob key of its own, and LOB_API_KEY is not set)`;
};

export const providerLobCommand: CliCommand = {
  name: 'provider lob',
  usage: 'wrs provider lob --company C [--key-file F|-] [--json]',
  summary: "set a company's Lob API key, read from a file or standard input (stored encrypted)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { ...COMPANY_AND_JSON, 'key-file': { type: 'string' } } });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    const checkBody = bodyChecker(LobKeyBody);
    return reportingFailures(async () => {
      const { api_key: apiKey } = checkBody({ api_key: readKey(values['key-file']) }, 'Lob key');
      const status = await withAppContext(config, (ctx) => ctx.checkProviders.setLobKey(companyId, apiKey));
      printResult(values.json, status, `Lob key stored (encrypted) for company "${companyId}"; ${describeStatus(status)}`);
    });
  },
};

export const providerShowCommand: CliCommand = {
  name: 'provider show',
  usage: 'wrs provider show --company C [--json]',
  summary: 'show which check provider a company uses (never the key)',
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const status = await withAppContext(config, (ctx) => ctx.checkProviders.status(companyId));
      printResult(values.json, status, describeStatus(status));
    });
  },
};
