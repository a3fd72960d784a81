const KB = 1024;
const MB = 1024 * KB;

/** A kept body's size as the connection's page shows it: "512 bytes", "12 KB", "3.4 MB" (1024-based, as the limits are). */
export function keptSize(bytes: number): string {
  if (bytes < KB) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  if (bytes < MB) return `${Math.ceil(bytes / KB)} KB`;
  return `${Number((bytes / MB).toFixed(1))} MB`;
}
