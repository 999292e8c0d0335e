import type { ShopOrder } from '@mise/shared/shop/schemas';
import { fillTemplate, localeTexts, type TextLanguage } from '../../platform/locale-texts';

export type ShopMailLanguage = TextLanguage;

const numberLocales: Record<ShopMailLanguage, string> = {
  fr: 'fr-FR',
  en: 'en-GB',
  de: 'de-DE',
  pl: 'pl-PL',
};

/**
 * Subject and text of the e-mail an order sends to the distributor's shop_email (issue 19), in
 * the distributor's language; the words are under "mails.shopOrder" of the locale files.
 */
export function shopOrderMail(
  language: ShopMailLanguage,
  order: ShopOrder,
): { subject: string; text: string } {
  const texts = localeTexts('mails', language).shopOrder;
  const money = new Intl.NumberFormat(numberLocales[language], {
    style: 'currency',
    currency: 'EUR',
  });
  const reference = order.id.slice(0, 8).toUpperCase();
  const values = { store: order.store_name, database: order.database_name, reference };
  const lines = order.lines.map((line) =>
    fillTemplate(texts.line, {
      quantity: line.quantity,
      name: line.name,
      price: money.format(line.price),
      amount: money.format((Math.round(line.price * 100) * line.quantity) / 100),
    }),
  );
  const orderedBy = order.ordered_by
    ? fillTemplate(texts.orderedBy, {
        name: `${order.ordered_by.name} ${order.ordered_by.surname}`.trim(),
      })
    : null;
  return {
    subject: fillTemplate(texts.subject, values),
    text: [
      texts.greeting,
      '',
      fillTemplate(texts.intro, values),
      '',
      ...lines,
      '',
      fillTemplate(texts.total, { total: money.format(order.total) }),
      ...(order.note ? ['', fillTemplate(texts.note, { note: order.note })] : []),
      ...(orderedBy ? [orderedBy] : []),
      fillTemplate(texts.reference, values),
      '',
      'Mise',
    ].join('\n'),
  };
}
