import { shopOrderQuantityRange } from '@mise/shared/shop/constants';
import { orderTotal } from '@mise/shared/shop/rules';
import type { StoreShopItem } from '@mise/shared/shop/schemas';

/* The basket of a store's order (issue 19): quantities per item and a note, until sent. */

export type Basket = {
  /** Item id → quantity (only quantities above 0 are kept). */
  quantities: Record<string, number>;
  note: string;
};

export const emptyBasket: Basket = { quantities: {}, note: '' };

export type BasketLine = { item: StoreShopItem; quantity: number };

/** A quantity the order accepts: a whole number from 0 (not ordered) to the maximum. */
export function clampQuantity(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), shopOrderQuantityRange.max);
}

/** A typed quantity: its digits only ('' is 0). */
export function parseQuantity(text: string): number {
  const digits = text.replace(/\D/g, '');
  return digits === '' ? 0 : clampQuantity(Number(digits));
}

export function withQuantity(basket: Basket, itemId: string, quantity: number): Basket {
  const { [itemId]: _previous, ...others } = basket.quantities;
  const next = clampQuantity(quantity);
  return { ...basket, quantities: next > 0 ? { ...others, [itemId]: next } : others };
}

/**
 * The lines to order, in the shop's order: the listed items with a quantity. An item no longer
 * in the shop is left out (the server would refuse it).
 */
export function basketLines(items: readonly StoreShopItem[], basket: Basket): BasketLine[] {
  return items.flatMap((item) => {
    const quantity = basket.quantities[item.id] ?? 0;
    return quantity > 0 ? [{ item, quantity }] : [];
  });
}

/** The basket's total in euros (the server prices the order again when it records it). */
export function basketTotal(lines: readonly BasketLine[]): number {
  return orderTotal(lines.map((line) => ({ price: line.item.price, quantity: line.quantity })));
}

/** Units in the basket (what the summary counts). */
export function basketUnits(lines: readonly BasketLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

const formatters = new Map<string, Intl.NumberFormat>();
/** Euros as the language writes them (12,50 € in French, €12.50 in English). */
export function formatEuros(value: number, language: string): string {
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR' });
    formatters.set(language, formatter);
  }
  return formatter.format(value);
}
