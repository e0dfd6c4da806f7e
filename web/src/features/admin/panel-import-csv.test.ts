import { describe, expect, it } from 'vitest';
import { parseImportCsv } from './panel-import-csv';

describe('reading username,email rows for an import', () => {
  it('skips a header line and blank lines, and trims cells', () => {
    expect(parseImportCsv('username,email\r\n alice , alice@example.com\r\n\r\nbob,bob@example.com\n')).toEqual([
      { username: 'alice', email: 'alice@example.com' },
      { username: 'bob', email: 'bob@example.com' },
    ]);
  });

  it('reads semicolons, tabs, quotes and a byte-order mark as spreadsheets write them', () => {
    expect(parseImportCsv('\uFEFF"carol";"carol@example.com"\n"dave";"dave@example.com"')).toEqual([
      { username: 'carol', email: 'carol@example.com' },
      { username: 'dave', email: 'dave@example.com' },
    ]);
    expect(parseImportCsv('erin\terin@example.com')).toEqual([{ username: 'erin', email: 'erin@example.com' }]);
  });

  it('keeps a row without an e-mail, so the server can say what is wrong with it', () => {
    expect(parseImportCsv('frank\ngrace,grace@example.com')).toEqual([
      { username: 'frank', email: '' },
      { username: 'grace', email: 'grace@example.com' },
    ]);
  });
});
