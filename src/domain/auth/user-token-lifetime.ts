/** How long a user token the service mints (operator API, `wrs token`) lives unless asked otherwise. */
export const DEFAULT_USER_TOKEN_LIFETIME_S = 86_400;

/** The lifetime of a minted user token: the one asked for, else the default, never past the service's own cap. */
export function mintedUserTokenLifetime(requested: number | undefined, maxLifetimeSeconds: number | undefined): number {
  return requested ?? Math.min(DEFAULT_USER_TOKEN_LIFETIME_S, maxLifetimeSeconds ?? Infinity);
}

/** Why a user token of this lifetime would be refused by the service (WRS_JWT_MAX_LIFETIME_S), or undefined. */
export function userTokenLifetimeProblem(seconds: number, maxLifetimeSeconds: number | undefined): string | undefined {
  if (maxLifetimeSeconds === undefined || seconds <= maxLifetimeSeconds) return undefined;
  return `${seconds} s is longer than WRS_JWT_MAX_LIFETIME_S (${maxLifetimeSeconds} s): this service would refuse the token`;
}
