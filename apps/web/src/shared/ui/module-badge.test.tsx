import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { ModuleBadge } from './module-badge';

describe('module badge', () => {
  it('shows the labels module in orange, as the spec colours it (issue 13)', () => {
    renderWithProviders(<ModuleBadge module="labels" />);
    const badge = screen.getByTestId('module-badge');
    expect(badge.textContent).toBe('Labels');
    expect(badge.getAttribute('style')).toContain('--mantine-color-orange');
  });

  it('keeps the other modules in their spec colours', () => {
    renderWithProviders(
      <>
        <ModuleBadge module="oils" testId="oils" />
        <ModuleBadge module="traceability" testId="traceability" />
      </>,
    );
    expect(screen.getByTestId('oils').getAttribute('style')).toContain('--mantine-color-yellow');
    expect(screen.getByTestId('traceability').getAttribute('style')).toContain(
      '--mantine-color-pink',
    );
  });
});
