// CSV cells and rows for the lead export (RFC 4180: every cell quoted, quotes doubled,
// CRLF between rows), with spreadsheet formula injection neutralised (OWASP "CSV
// Injection"): a cell that starts with =, +, -, @, a tab or a carriage return, or with
// =, +, -, @ after leading whitespace (spreadsheets trim "  =1+1" and run it; issue 27)
// gets a leading apostrophe, so Excel, LibreOffice and Google Sheets show it as text
// instead of running it. E.164 phone numbers ("+44…") are cells like any other and get one too.

/** The UTF-8 byte order mark: spreadsheet programs then read the file as UTF-8. */
export const BOM = "\uFEFF";

/** What a cell the export puts an apostrophe before starts with. */
export const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;

/** One cell: neutralised against formula injection, then quoted. Null is an empty cell. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One row, ended by CRLF. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
