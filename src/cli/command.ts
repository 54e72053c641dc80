/**
 * One CLI sub-command. `argv` holds the words after the command's name. A command's module stays
 * light: what only its run needs (the app's services, the HTTP server) is imported inside `run`,
 * so that `wrs` loads the code of the one command it runs, not of all of them.
 */
export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a command that returns nothing exits 0; undefined would make every such command return it
  run(argv: string[]): Promise<number | void>;
}

export class UsageError extends Error {}
