// Reads the shell examples of the README and the guides in docs/, and turns one file's runnable
// examples into one bash script whose curl calls report their HTTP status.
//
// The convention (stated for readers in docs/development.md):
//   ```sh         runs, as written, against the demo `npm start` serves, with BASE, TOKEN and
//                 ADMIN_TOKEN exported; every curl in it is followed by a `# -> NNN` comment
//                 giving the status it answers (and the start of its body);
//   ```sh norun   shown only (production settings, PostgreSQL, files the reader does not have,
//                 benchmark runs, npm test).
// Any other shell-like info string (bash, shell, console, sh with another word) is refused, so
// that no example slips past the test under a different spelling.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUN = 'sh';
export const NO_RUN = 'sh norun';
const SHELL_WORDS = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'shell-session', 'shellsession']);

export interface DocBlock {
  /** The file, relative to the repository root. */
  readonly file: string;
  /** The info string after the opening fence, trimmed. */
  readonly info: string;
  /** 1-based line (in the file) of the block's first code line. */
  readonly firstLine: number;
  readonly lines: readonly string[];
}

export interface CurlCall {
  /** 1-based line in the file where the call's `curl` is written. */
  readonly line: number;
  /** The status of the `# -> NNN` annotation after it, if any. */
  readonly expected: number | undefined;
}

/** README.md and every docs/*.md, relative to the repository root. */
export function docFiles(root: string): string[] {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/** The fenced code blocks of a Markdown file (``` or ~~~ fences, as CommonMark reads them). */
export function codeBlocks(file: string, markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; indent: number; info: string; firstLine: number; lines: string[] } | undefined;
  lines.forEach((text, index) => {
    if (!open) {
      const start = /^( {0,3})(`{3,}|~{3,})\s*([^`]*?)\s*$/.exec(text);
      if (start) open = { fence: start[2]!, indent: start[1]!.length, info: start[3]!, firstLine: index + 2, lines: [] };
      return;
    }
    const end = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
    if (end && end[1]![0] === open.fence[0] && end[1]!.length >= open.fence.length) {
      blocks.push({ file, info: open.info, firstLine: open.firstLine, lines: open.lines });
      open = undefined;
      return;
    }
    open.lines.push(open.indent ? text.replace(new RegExp(`^ {0,${open.indent}}`), '') : text);
  });
  if (open) throw new Error(`${file}:${open.firstLine - 1}: a code block is never closed`);
  return blocks;
}

export type BlockKind = 'run' | 'norun' | 'not-shell';

/** What the test does with a block; throws for a shell block written neither way. */
export function blockKind(block: DocBlock): BlockKind {
  if (block.info === RUN) return 'run';
  if (block.info === NO_RUN) return 'norun';
  const word = block.info.split(/\s+/)[0]!.toLowerCase();
  if (SHELL_WORDS.has(word)) {
    throw new Error(
      `${block.file}:${block.firstLine - 1}: a shell block is \`\`\`${RUN} (run against the demo) or \`\`\`${NO_RUN} (shown only), not \`\`\`${block.info}`,
    );
  }
  return 'not-shell';
}

const CURL = /(^|[\s;&|($`])curl(\s|$)/;
const ANNOTATION = /^\s*#\s*->\s*(\d{3})\b/;

/**
 * The curl calls of a block, in the order they are written (and run: runnable examples have no
 * loops), each with the status its annotation expects. A call's annotation is the first
 * `# -> NNN` comment after it and before the next call.
 */
export function curlCalls(block: DocBlock): CurlCall[] {
  const calls: Array<{ line: number; expected: number | undefined }> = [];
  block.lines.forEach((text, index) => {
    const line = block.firstLine + index;
    if (/^\s*#/.test(text)) {
      const annotation = ANNOTATION.exec(text);
      const last = calls.at(-1);
      if (annotation && last && last.expected === undefined) last.expected = Number(annotation[1]);
      return;
    }
    if (CURL.test(text.replace(/'[^']*'/g, "''"))) calls.push({ line, expected: undefined });
  });
  return calls;
}

/** Where each generated script line came from, to name the file's line when a command fails. */
export interface GeneratedScript {
  readonly text: string;
  /** Script line (1-based) to file line, for the lines copied from the file. */
  readonly origin: ReadonlyMap<number, number>;
}

export const STATUS_MARK = '@@wrs-doc-status';
export const BLOCK_MARK = '@@wrs-doc-block';
export const FAILED_MARK = '@@wrs-doc-failed';

/**
 * One bash script running a file's runnable blocks in order. `curl` is wrapped so that every
 * call also writes its status (`-w '%{stderr}...'`) to file descriptor 9, which the test opens
 * on a side file; the docs' own commands stay exactly as written. `npx wrs` runs the CLI from
 * this checkout's sources (what `npm ci` would have built into dist/).
 */
export function bashScript(blocks: readonly DocBlock[], cliCommand: string): GeneratedScript {
  const head = [
    'set -Eeuo pipefail',
    `trap 'rc=$?; echo "${FAILED_MARK} $LINENO $rc" >&9' ERR`,
    `curl() { command curl -w '%{stderr}${STATUS_MARK} %{http_code}\\n' "$@" 2>&9; }`,
    `npx() { if [[ "\${1-}" == wrs ]]; then shift; ${cliCommand} "$@"; else command npx "$@"; fi; }`,
  ];
  const lines = [...head];
  const origin = new Map<number, number>();
  blocks.forEach((block, index) => {
    lines.push(`echo "${BLOCK_MARK} ${index}" >&9`);
    block.lines.forEach((text, offset) => {
      lines.push(text);
      origin.set(lines.length, block.firstLine + offset);
    });
  });
  lines.push('');
  return { text: lines.join('\n'), origin };
}

export interface ScriptReport {
  /** Statuses recorded per block index, in the order the calls ran. */
  readonly statuses: Map<number, number[]>;
  /** The script line and exit status of the first command that failed, if one did. */
  readonly failed: { scriptLine: number; status: number } | undefined;
  /** Whatever else curl wrote on stderr (its error messages). */
  readonly curlErrors: string[];
}

/** Reads the side file the script wrote on descriptor 9. */
export function readReport(sideFile: string): ScriptReport {
  const statuses = new Map<number, number[]>();
  let block = -1;
  let failed: ScriptReport['failed'];
  const curlErrors: string[] = [];
  for (const line of readFileSync(sideFile, 'utf8').split('\n')) {
    if (!line) continue;
    const [mark, a, b] = line.split(' ');
    if (mark === BLOCK_MARK) {
      block = Number(a);
      statuses.set(block, []);
    } else if (mark === STATUS_MARK) {
      statuses.get(block)?.push(Number(a));
    } else if (mark === FAILED_MARK) {
      failed ??= { scriptLine: Number(a), status: Number(b) };
    } else if (line.includes(STATUS_MARK)) {
      // curl's own message without a newline, then the status on the same line
      const at = line.indexOf(STATUS_MARK);
      curlErrors.push(line.slice(0, at));
      statuses.get(block)?.push(Number(line.slice(at + STATUS_MARK.length + 1)));
    } else {
      curlErrors.push(line);
    }
  }
  return { statuses, failed, curlErrors };
}
