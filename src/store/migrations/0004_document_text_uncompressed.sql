-- The shared text is rewritten whole by every edit batch: stored uncompressed,
-- each write skips compressing up to megabytes (DESIGN.md §11's edit target).
ALTER TABLE "thread_contexts" ALTER COLUMN "document_text" SET STORAGE EXTERNAL;
