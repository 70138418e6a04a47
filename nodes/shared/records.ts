/** The API document's four record types, as the nodes name them in parameters and messages. */
export type RecordNoun = 'contact' | 'invoice' | 'product' | 'employee';

/** A word with its first letter in capitals, for a label or the start of a message: `contact` → `Contact`. */
export const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
