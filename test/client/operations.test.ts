import { describeEachDatabase } from '../helpers/databases.js';
import { clientOperationsSuite } from './client-operations.js';
import { startListeningService } from './listening-service.js';

describeEachDatabase('TypeScript client: every /v1 operation against the listening service', (kind) => {
  clientOperationsSuite(() => startListeningService(kind, { env: { WRS_PDF_WORKERS: '1' } }));
});
