/** Resolves a host name to every address it has (the system resolver, as a connection would). */
export interface AddressResolver {
  resolve(hostname: string): Promise<string[]>;
}
