import { Box, UnstyledButton } from '@mantine/core';
import { patternPointIndexes } from '@mise/shared/people/pattern';
import { useTranslation } from 'react-i18next';

type PatternGridProps = {
  pattern: readonly number[];
  onTap: (point: number) => void;
  isDisabled?: boolean;
};

const gridSize = 240;
const cellSize = gridSize / 3;
const pointSize = 44;

function pointCenter(point: number): { x: number; y: number } {
  return {
    x: (point % 3) * cellSize + cellSize / 2,
    y: Math.floor(point / 3) * cellSize + cellSize / 2,
  };
}

/**
 * The 9-point pattern grid (spec 000 §5): each point is a button showing its order in the
 * pattern; the drawn path joins the selected points in order.
 */
export function PatternGrid({ pattern, onTap, isDisabled = false }: PatternGridProps) {
  const { t } = useTranslation();
  const path = pattern.map((point) => pointCenter(point));
  return (
    <Box pos="relative" w={gridSize} h={gridSize} mx="auto" data-testid="pattern-grid">
      <svg
        width={gridSize}
        height={gridSize}
        viewBox={`0 0 ${gridSize} ${gridSize}`}
        style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
        aria-hidden="true"
      >
        {path.length > 1 ? (
          <polyline
            points={path.map(({ x, y }) => `${x},${y}`).join(' ')}
            fill="none"
            stroke="var(--mantine-primary-color-filled)"
            strokeWidth={4}
            strokeLinecap="round"
            strokeLinejoin="round"
            opacity={0.5}
          />
        ) : null}
      </svg>
      {patternPointIndexes.map((point) => {
        const order = pattern.indexOf(point);
        const isSelected = order >= 0;
        const { x, y } = pointCenter(point);
        return (
          <UnstyledButton
            key={point}
            onClick={() => onTap(point)}
            disabled={isDisabled}
            aria-pressed={isSelected}
            aria-label={
              isSelected
                ? t('employees.auth.pointSelected', { point: point + 1, order: order + 1 })
                : t('employees.auth.point', { point: point + 1 })
            }
            data-testid={`pattern-point-${point}`}
            data-order={isSelected ? order + 1 : undefined}
            style={{
              position: 'absolute',
              left: x - pointSize / 2,
              top: y - pointSize / 2,
              width: pointSize,
              height: pointSize,
              borderRadius: '50%',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              fontWeight: 700,
              border: '2px solid var(--mantine-primary-color-filled)',
              background: isSelected
                ? 'var(--mantine-primary-color-filled)'
                : 'var(--mantine-color-body)',
              color: isSelected ? 'var(--mantine-color-white)' : 'var(--mantine-color-dimmed)',
            }}
          >
            {isSelected ? order + 1 : '•'}
          </UnstyledButton>
        );
      })}
    </Box>
  );
}
