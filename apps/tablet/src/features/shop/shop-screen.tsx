import {
  shopOrderMaxLines,
  shopOrderNoteMaxLength,
  shopOrderQuantityRange,
} from '@mise/shared/shop/constants';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome, navigate } from '../../app/navigation';
import { useImageSource } from '../../shared/api/protected-file';
import { useDeviceState } from '../../shared/device/device-state';
import { errorText } from '../../shared/i18n/i18n';
import { onRecordSent } from '../../shared/outbox/outbox';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { mayOrder, useStoreShop } from './shop-access';
import {
  enqueueOrder,
  failureText,
  orderPath,
  type ShopOrder,
  type StoreShopItem,
} from './shop-api';
import {
  type BasketLine,
  basketLines,
  basketTotal,
  basketUnits,
  emptyBasket,
  formatEuros,
  parseQuantity,
  withQuantity,
} from './shop-basket';
import { useShopBasket } from './use-shop-basket';
import './shop.css';

function QuantityStepper({
  name,
  quantity,
  onChange,
}: {
  name: string;
  quantity: number;
  onChange: (quantity: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="shop-stepper">
      <button
        type="button"
        className="button shop-stepper__button"
        aria-label={t('shop.less', { name })}
        disabled={quantity === 0}
        onClick={() => onChange(quantity - 1)}
      >
        −
      </button>
      <input
        className="input shop-stepper__input"
        inputMode="numeric"
        autoComplete="off"
        aria-label={t('shop.quantity', { name })}
        placeholder="0"
        value={quantity === 0 ? '' : String(quantity)}
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => onChange(parseQuantity(event.currentTarget.value))}
      />
      <button
        type="button"
        className="button shop-stepper__button"
        aria-label={t('shop.more', { name })}
        disabled={quantity >= shopOrderQuantityRange.max}
        onClick={() => onChange(quantity + 1)}
      >
        +
      </button>
    </div>
  );
}

function ItemCard({
  item,
  quantity,
  onChange,
}: {
  item: StoreShopItem;
  quantity: number;
  onChange: (quantity: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const source = useImageSource(item.illustration_url);
  return (
    <li
      className={[
        'card shop-item',
        quantity > 0 ? 'shop-item--chosen' : '',
        item.illustration_url ? 'shop-item--pictured' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {item.illustration_url ? (
        <div className="shop-item__picture">{source ? <img src={source} alt="" /> : null}</div>
      ) : null}
      <div className="shop-item__text">
        <h2 className="shop-item__name">{item.name}</h2>
        {item.description ? (
          <p className="muted shop-item__description">{item.description}</p>
        ) : null}
      </div>
      <p className="shop-item__price">
        {t('shop.unitPrice', { price: formatEuros(item.price, i18n.language) })}
      </p>
      <QuantityStepper name={item.name} quantity={quantity} onChange={onChange} />
    </li>
  );
}

function LinesList({ lines }: { lines: readonly BasketLine[] }) {
  const { i18n } = useTranslation();
  return (
    <ul className="shop-basket__lines">
      {lines.map((line) => (
        <li key={line.item.id}>
          <span className="shop-basket__line-name">
            {line.quantity} × {line.item.name}
          </span>
          <span>{formatEuros(line.item.price * line.quantity, i18n.language)}</span>
        </li>
      ))}
    </ul>
  );
}

type PlacedOrder = { key: string; units: number; total: number };

/** Where the last order made here stands: waiting in the outbox, refused, or sent. */
function OrderStatus({ order, answer }: { order: PlacedOrder; answer: ShopOrder | null }) {
  const { t, i18n } = useTranslation();
  const outbox = useOutbox();
  const summary = { count: order.units, total: formatEuros(order.total, i18n.language) };
  const refused = outbox.refused.find((record) => record.idempotency_key === order.key);
  if (refused?.refusal)
    return (
      <div className="card stack shop-status shop-status--refused" role="alert">
        <p>
          {t('shop.refused', {
            reason: errorText(refused.refusal.code, refused.refusal.message),
          })}
        </p>
        <div className="row">
          <button type="button" className="button" onClick={() => navigate({ name: 'outbox' })}>
            {t('shop.seeOutbox')}
          </button>
        </div>
      </div>
    );
  const isWaiting = outbox.waiting.some((record) => record.idempotency_key === order.key);
  let text: string;
  if (isWaiting)
    text =
      outbox.offlineSince === null ? t('shop.sending', summary) : t('shop.keptOffline', summary);
  else if (answer?.status === 'no-email') text = t('shop.recordedNoEmail', summary);
  else text = t('shop.sent', summary);
  return (
    <p
      className={`card shop-status ${isWaiting ? 'shop-status--waiting' : 'shop-status--sent'}`}
      role="status"
    >
      {text}
    </p>
  );
}

/**
 * The distributor's shop on the tablet (issue 19): the store's orderable items with their
 * price, a quantity per item, the basket with its total and a note, and the order sent through
 * the outbox (kept on the tablet during a network cut, sent once with its key). The basket is
 * the employee's and is kept on the tablet until the order is made.
 */
export function ShopScreen() {
  const { t, i18n } = useTranslation();
  const { context } = useDeviceState();
  const session = useEmployeeSession();
  const isAllowed = mayOrder(context, session);
  const shop = useStoreShop(isAllowed);
  const { basket, change } = useShopBasket(isAllowed && session ? session.employee.id : null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isPlacing, setIsPlacing] = useState(false);
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  const [answer, setAnswer] = useState<{ key: string; order: ShopOrder } | null>(null);

  useEffect(() => {
    const stopListening = onRecordSent((record, sent) => {
      if (record.path !== orderPath) return;
      const order = (sent as { order?: ShopOrder } | null)?.order;
      if (order) setAnswer({ key: record.idempotency_key, order });
    });
    return () => {
      stopListening();
    };
  }, []);

  const items = shop.data?.available ? shop.data.items : [];
  const current = basket ?? emptyBasket;
  const lines = basketLines(items, current);
  const units = basketUnits(lines);
  const total = basketTotal(lines);
  const hasTooManyLines = lines.length > shopOrderMaxLines;
  const distributor = shop.data?.distributor_name ?? null;

  const handlePlace = async () => {
    if (!session || isPlacing || lines.length === 0) return;
    setIsPlacing(true);
    try {
      const record = await enqueueOrder(
        session,
        {
          lines: lines.map((line) => ({ item_id: line.item.id, quantity: line.quantity })),
          note: current.note.trim(),
        },
        t('shop.outboxLabel', { count: units }),
      );
      change(() => emptyBasket);
      setPlaced({ key: record.idempotency_key, units, total });
      setIsConfirming(false);
    } finally {
      setIsPlacing(false);
    }
  };

  const handleShowBasket = () => {
    const heading = document.getElementById('shop-basket-title');
    heading?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    heading?.focus({ preventScroll: true });
  };

  let content: ReactNode;
  if (!isAllowed)
    content = (
      <p className="muted">
        {context?.store.hidden_extensions.includes('shop')
          ? t('shop.unavailable')
          : t('shop.notAllowed')}
      </p>
    );
  else if (!shop.data)
    content = shop.isError ? (
      <p className="error-text" role="alert">
        {failureText(shop.error)}
      </p>
    ) : (
      <p className="muted">{t('common.loading')}</p>
    );
  else if (!shop.data.available) content = <p className="muted">{t('shop.unavailable')}</p>;
  else if (items.length === 0) content = <p className="muted">{t('shop.empty')}</p>;
  else
    content = (
      <div className="shop__layout">
        <ul className="shop__items" aria-label={t('shop.items')}>
          {items.map((item) => (
            <ItemCard
              key={item.id}
              item={item}
              quantity={current.quantities[item.id] ?? 0}
              onChange={(quantity) =>
                change((basketNow) => withQuantity(basketNow, item.id, quantity))
              }
            />
          ))}
        </ul>
        <section className="card stack shop-basket" aria-labelledby="shop-basket-title">
          <h2 id="shop-basket-title" tabIndex={-1}>
            {t('shop.basket')}
          </h2>
          {lines.length === 0 ? (
            <p className="muted">{t('shop.basketEmpty')}</p>
          ) : (
            <LinesList lines={lines} />
          )}
          <p className="shop-basket__total">
            <span>{t('shop.total')}</span>
            <strong data-testid="shop-total">{formatEuros(total, i18n.language)}</strong>
          </p>
          <label className="field">
            <span className="field__label">{t('shop.note')}</span>
            <textarea
              className="textarea"
              maxLength={shopOrderNoteMaxLength}
              value={current.note}
              onChange={(event) => {
                const note = event.currentTarget.value;
                change((basketNow) => ({ ...basketNow, note }));
              }}
            />
          </label>
          {hasTooManyLines ? (
            <p className="error-text" role="alert">
              {t('shop.tooManyLines', { count: shopOrderMaxLines })}
            </p>
          ) : null}
          <button
            type="button"
            className="button button--primary button--large button--block"
            disabled={lines.length === 0 || hasTooManyLines || isPlacing}
            onClick={() => setIsConfirming(true)}
          >
            {t('shop.send')}
          </button>
          {lines.length > 0 ? (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => change((basketNow) => ({ ...basketNow, quantities: {} }))}
            >
              {t('shop.clear')}
            </button>
          ) : null}
        </section>
        {units > 0 ? (
          <div className="shop__bar">
            <span>
              {t('shop.barSummary', { count: units, total: formatEuros(total, i18n.language) })}
            </span>
            <button type="button" className="button button--primary" onClick={handleShowBasket}>
              {t('shop.review')}
            </button>
          </div>
        ) : null}
      </div>
    );

  return (
    <section className="stack shop" aria-labelledby="shop-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id="shop-title">{t('shop.title')}</h1>
        {isAllowed && distributor ? (
          <span className="muted">{t('shop.from', { distributor })}</span>
        ) : null}
      </div>
      {placed ? (
        <OrderStatus order={placed} answer={answer?.key === placed.key ? answer.order : null} />
      ) : null}
      {content}
      {isConfirming ? (
        <Dialog title={t('shop.confirmTitle')} onClose={() => setIsConfirming(false)}>
          <p>
            {distributor
              ? t('shop.confirmText', {
                  count: units,
                  total: formatEuros(total, i18n.language),
                  distributor,
                })
              : t('shop.confirmTextNoName', {
                  count: units,
                  total: formatEuros(total, i18n.language),
                })}
          </p>
          <LinesList lines={lines} />
          {current.note.trim() ? (
            <p className="shop-confirm__note">
              {t('shop.noteShown', { note: current.note.trim() })}
            </p>
          ) : null}
          <div className="row shop-confirm__actions">
            <button type="button" className="button" onClick={() => setIsConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={isPlacing}
              onClick={() => void handlePlace()}
            >
              {t('shop.confirm')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
