/** Markdown pieces the report is built from. */
const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
export const table = (header: string[], rows: unknown[][]) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const verdict = (failures: string[]) => (failures.length === 0 ? 'pass' : `**FAIL**: ${failures.join('; ')}`);
