/** An amount in euros, in the interface language (e.g. "1 234,50 €" in French). */
export function formatEuros(value: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR' }).format(value);
}
