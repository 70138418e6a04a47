/** The total of one count over scenarios or runs. */
export const sum = <K extends string>(rows: Array<Record<K, number>>, field: K) => rows.reduce((total, row) => total + row[field], 0);
