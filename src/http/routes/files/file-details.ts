// The shape lives in the domain: the step.completed webhook sends the same details.
export { fileDetails, fileDownloadUrl } from '../../../domain/files/file-details.js';
