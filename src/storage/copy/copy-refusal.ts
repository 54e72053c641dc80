/**
 * Why a database copy does not start or does not finish: a source or target that is not what
 * the copy needs, or a copy that did not match. The message is for the operator, as it is.
 */
export class CopyRefusal extends Error {}
