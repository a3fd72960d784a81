// Counting the fields of each CSV record while the text streams in, before csv-parse sees it
// (issue 27, finding 1). csv-parse builds a whole record before anything can look at it: its
// `on_record` and `info` hooks run once the record is complete, `relax_column_count` is checked
// then too, and `max_record_size` counts cell characters, not delimiters. A file of `name` and
// 20 million commas was so a 20-million-cell array in memory before the column limit was checked.
// This state machine follows csv-parse's own reading of the text, with the options
// lib/imports/csv-file.ts gives it (quote and escape ", no comments, no trimming, strict quotes,
// the record delimiter discovered as csv-parse discovers it, blank lines skipped), so its count
// of fields equals csv-parse's for every file csv-parse accepts; on a file csv-parse refuses it
// may count differently, but csv-parse then stops at its own error.

/** The quote (and escape) character csv-parse is given; a quote inside a quoted cell is doubled. */
export const CSV_QUOTE = '"';

/** The record passing the column limit: `row` as a spreadsheet shows it (the header is row 1). */
export type ColumnOverflow = { row: number; limit: number; headerColumns: number | null };

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

type RecordDelimiter = "\r\n" | "\n" | "\r";

export class CsvColumnGuard {
  private readonly delimiter: number;
  private recordDelimiter: RecordDelimiter | null = null;
  /** Delimiters seen outside quotes in the current record (its fields are one more). */
  private delimiters = 0;
  /** The current field has begun: a character, or an opening quote (a later quote is no opening). */
  private fieldStarted = false;
  private quoting = false;
  /** A quote inside a quoted cell ended a chunk: the next character says whether it was doubled. */
  private pendingQuote = false;
  /** A carriage return outside quotes ended a chunk: the next character says whether "\r\n" follows. */
  private pendingCr = false;
  private records = 0;
  private headerColumns: number | null = null;
  private overflow: ColumnOverflow | null = null;

  /**
   * `delimiter` is the file's, as sniffed from its header line before parsing starts (and given
   * to csv-parse as such), so only it is counted; `onRecord` hears each record's field count.
   */
  constructor(
    delimiter: string,
    private readonly limit: number,
    private readonly onRecord?: (fields: number) => void,
  ) {
    if (delimiter.length !== 1) throw new Error("The column guard counts a one-character delimiter.");
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Reads the next chunk of text; the overflow once a record has more fields than the limit. */
  push(text: string): ColumnOverflow | null {
    if (this.overflow) return this.overflow;
    const length = text.length;
    let i = 0;
    if (length > 0 && this.pendingQuote) {
      this.pendingQuote = false;
      if (text.charCodeAt(0) === QUOTE) i = 1;
      else this.quoting = false;
    } else if (length > 0 && this.pendingCr) {
      this.pendingCr = false;
      if (text.charCodeAt(0) === LF) {
        this.recordDelimiter ??= "\r\n";
        this.endRecord();
        i = 1;
      } else if (this.recordDelimiter === "\r\n") {
        this.fieldStarted = true;
      } else {
        this.recordDelimiter = "\r";
        this.endRecord();
      }
    }
    const delimiter = this.delimiter;
    while (i < length) {
      if (this.quoting) {
        // Inside quotes only a quote matters: doubled, it is a character; single, it closes.
        const quote = text.indexOf(CSV_QUOTE, i);
        if (quote < 0) return null;
        if (quote + 1 >= length) {
          this.pendingQuote = true;
          return null;
        }
        if (text.charCodeAt(quote + 1) === QUOTE) i = quote + 2;
        else {
          this.quoting = false;
          i = quote + 1;
        }
        continue;
      }
      let char = text.charCodeAt(i);
      // The ordinary characters of a cell, most of any file, in a tight loop.
      if (char !== delimiter && char !== QUOTE && char !== LF && char !== CR) {
        this.fieldStarted = true;
        do char = text.charCodeAt(++i);
        while (i < length && char !== delimiter && char !== QUOTE && char !== LF && char !== CR);
        if (i >= length) return null;
      }
      if (char === delimiter) {
        this.delimiters++;
        this.fieldStarted = false;
        if (this.delimiters + 1 > this.limit) {
          this.overflow = { row: this.records + 1, limit: this.limit, headerColumns: this.headerColumns };
          return this.overflow;
        }
      } else if (char === QUOTE) {
        // A quote opens a quoted cell only at its start (elsewhere csv-parse refuses it).
        if (!this.fieldStarted) this.quoting = true;
        this.fieldStarted = true;
      } else if (char === LF) {
        if (this.recordDelimiter === "\r\n" || this.recordDelimiter === "\r") this.fieldStarted = true;
        else {
          this.recordDelimiter = "\n";
          this.endRecord();
        }
      } else if (this.recordDelimiter === "\r") {
        this.endRecord();
      } else if (this.recordDelimiter === "\n") {
        this.fieldStarted = true;
      } else {
        // A carriage return, the record delimiter undiscovered or "\r\n": the next character decides.
        if (i + 1 >= length) {
          this.pendingCr = true;
          return null;
        }
        const crlf = text.charCodeAt(i + 1) === LF;
        if (this.recordDelimiter === null) this.recordDelimiter = crlf ? "\r\n" : "\r";
        if (crlf) {
          this.endRecord();
          i++;
        } else if (this.recordDelimiter === "\r") this.endRecord();
        else this.fieldStarted = true;
      }
      i++;
    }
    return null;
  }

  /** The end of the text: a last record without a line break counts too. */
  end(): void {
    if (this.overflow) return;
    if (this.pendingQuote) this.quoting = this.pendingQuote = false;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (this.recordDelimiter === "\r\n") this.fieldStarted = true;
      else this.endRecord();
    }
    if (!this.quoting) this.endRecord();
  }

  private endRecord(): void {
    // A line with nothing on it is skipped (csv-parse's skip_empty_lines), and not counted.
    if (this.delimiters > 0 || this.fieldStarted) {
      const fields = this.delimiters + 1;
      this.headerColumns ??= fields;
      this.records++;
      this.onRecord?.(fields);
    }
    this.delimiters = 0;
    this.fieldStarted = false;
  }
}
