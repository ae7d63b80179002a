// A project's documents and their revisions, as the document tools answer them.

export interface DocumentListing {
  path: string;
  revision: number;
  updated_at: string;
  /** The revision live in each environment that has one. */
  live: Record<string, number>;
}

export interface RevisionView {
  path: string;
  revision: number;
  current_revision: number;
  sha256: string;
  author: string | null;
  message: string | null;
  created_at: string;
  text: string;
}

export interface RevisionListing {
  revision: number;
  author: string | null;
  created_at: string;
  /** Bytes of UTF-8. */
  size: number;
  sha256: string;
  message: string | null;
}
