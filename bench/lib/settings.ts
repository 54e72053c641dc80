/** How long and how hard each scenario runs, from the command line. */
export interface BenchSettings {
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
  runs: number;
  only: string[] | undefined;
  /** Stream clients held open at once by the stream-fanout scenario, and events sent to them. */
  streamClients: number;
  streamRounds: number;
  /** How long the stream clients, once connected, are left before the first event. */
  streamSettleMs: number;
}
