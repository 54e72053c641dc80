/**
 * A lifecycle job as data: what the services hand to their BackgroundJobs, so that it can be run
 * in this thread or posted to the thread that runs the jobs (the composition root decides which).
 */
export type LifecycleJob =
  | { readonly kind: 'offboarding'; readonly companyId: string }
  | { readonly kind: 'erasure'; readonly companyId: string; readonly erasureId: string }
  | { readonly kind: 'retention-sweep' };
