/**
 * The text of an uploaded text file. UTF-8 unless a byte-order mark says UTF-16 (Windows
 * tools export transcripts so); a UTF-8 byte-order mark is dropped. Undecodable bytes become
 * U+FFFD, for the caller to judge.
 */
export function decodeTextFile(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return new TextDecoder('utf-8').decode(buf).replace(/^\uFEFF/, '');
}
