/** Signs that an error comes from a bug, not a rule: a JavaScript error leaking through, or a value printed without being turned into text. */
const CRASH = /Cannot read propert|Cannot set propert|is not a function|is not defined|is not iterable|Maximum call stack|\bundefined\b|\bNaN\b|\[object Object\]/;

export const CRASH_ERROR_NAMES = ['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError'];

export const looksLikeCrash = (text: string): boolean => CRASH.test(text);
