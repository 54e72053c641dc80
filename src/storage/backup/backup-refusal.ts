/**
 * Why a SQLite backup or restore does not start or does not finish: a file that is not a sound
 * wrs database, a target in use or already there. The message is for the operator, as it is.
 */
export class BackupRefusal extends Error {}
