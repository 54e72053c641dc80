/** One CLI sub-command. `argv` holds the words after the command's name. */
export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(argv: string[]): Promise<number | void>;
}

export class UsageError extends Error {}
