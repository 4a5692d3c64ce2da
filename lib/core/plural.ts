/**
 * A count and its noun, agreeing in number: "1 warning", "2 warnings", "0 warnings". English
 * only (the interface is English); nouns whose plural is not "+s" name it ("entry", "entries").
 * Pure, so pages, components, the CLI and the API's messages share it.
 */
export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count.toLocaleString("en")} ${pluralWord(count, one, many)}`;
}

/** Only the noun, for sentences that set the count apart (in bold, say): `warning` or `warnings`. */
export function pluralWord(count: number, one: string, many: string = `${one}s`): string {
  return count === 1 ? one : many;
}
