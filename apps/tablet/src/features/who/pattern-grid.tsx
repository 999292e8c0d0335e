import { tapPatternPoint } from '@mise/shared/people/pattern';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type PatternGridProps = {
  onSubmit: (points: number[]) => void;
  isBusy?: boolean;
};

/** Where each of the 9 points sits, in % of the grid (3 × 3, indexes 0 to 8 row by row). */
const positions = Array.from({ length: 9 }, (_, index) => ({
  x: 16.7 + (index % 3) * 33.3,
  y: 16.7 + Math.floor(index / 3) * 33.3,
}));

/**
 * The 9-point pattern: tap points one after the other, or draw across them with a finger (a
 * drag adds the points it crosses; a tap on a chosen point cuts the pattern there);
 * Validate sends it (at least 3 points, spec 000 §5).
 */
export function PatternGrid({ onSubmit, isBusy = false }: PatternGridProps) {
  const { t } = useTranslation();
  const [points, setPoints] = useState<number[]>([]);
  const grid = useRef<HTMLDivElement>(null);
  const isDrawing = useRef(false);

  const pointAt = (clientX: number, clientY: number): number | null => {
    const box = grid.current?.getBoundingClientRect();
    if (!box || box.width === 0) return null;
    const x = ((clientX - box.left) / box.width) * 100;
    const y = ((clientY - box.top) / box.height) * 100;
    const index = positions.findIndex(
      (position) => Math.hypot(position.x - x, position.y - y) < 12,
    );
    return index === -1 ? null : index;
  };

  const handleMove = (clientX: number, clientY: number) => {
    if (!isDrawing.current) return;
    const point = pointAt(clientX, clientY);
    if (point !== null)
      setPoints((current) => (current.includes(point) ? current : [...current, point]));
  };

  return (
    <div className="stack">
      <p>{t('who.drawPattern')}</p>
      <div
        ref={grid}
        className="pattern"
        onPointerDown={() => {
          isDrawing.current = true;
        }}
        onPointerMove={(event) => handleMove(event.clientX, event.clientY)}
        onPointerUp={() => {
          isDrawing.current = false;
        }}
        onPointerLeave={() => {
          isDrawing.current = false;
        }}
      >
        <svg viewBox="0 0 100 100" aria-hidden="true">
          <polyline
            points={points
              .map((point) => `${positions[point]!.x},${positions[point]!.y}`)
              .join(' ')}
            fill="none"
            stroke="var(--color-primary)"
            strokeWidth="3"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {positions.map((position, index) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: the 9 fixed points
            key={index}
            type="button"
            className="pattern__point"
            style={{ left: `${position.x}%`, top: `${position.y}%` }}
            aria-label={t('who.point', { index: index + 1 })}
            aria-pressed={points.includes(index)}
            disabled={isBusy}
            onClick={() => setPoints((current) => tapPatternPoint(current, index))}
          />
        ))}
      </div>
      <div className="row">
        <button
          type="button"
          className="button"
          disabled={isBusy || points.length === 0}
          onClick={() => setPoints([])}
        >
          {t('who.clear')}
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="button button--primary"
          disabled={isBusy || points.length === 0}
          onClick={() => {
            onSubmit(points);
            setPoints([]);
          }}
        >
          {t('who.validate')}
        </button>
      </div>
    </div>
  );
}
