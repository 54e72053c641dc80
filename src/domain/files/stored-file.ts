/** A stored file (a rendered PDF) as the API shows it. */
export interface StoredFile {
  id: string;
  record_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  pages: number;
  sha256: string;
  template_id: string;
  created_at: string;
}
