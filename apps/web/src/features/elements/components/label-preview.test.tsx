import { newLabelValues } from '@mise/shared/catalogue/rules';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { renderWithProviders } from '../../../test/render-app';
import { LabelPreview } from './label-preview';

const now = new Date(2026, 10, 23, 9, 30);

describe('label preview', () => {
  it('prints the defrosting end and the expiration counted from it, in the user language', async () => {
    await i18n.changeLanguage('fr');
    renderWithProviders(
      <LabelPreview
        elementName="Crevettes"
        now={now}
        label={{
          ...newLabelValues('Décongélation'),
          defrosting_duration: 24,
          expiration_duration: 48,
          cumulate_expiration_duration: true,
        }}
      />,
    );
    expect(screen.getByTestId('label-preview-element').textContent).toBe('Crevettes');
    expect(screen.getByTestId('label-preview-name').textContent).toBe('Décongélation');
    expect(screen.getByTestId('label-preview-defrosted').textContent).toBe(
      'Décongelé : 24/11/2026 09:30',
    );
    expect(screen.getByTestId('label-preview-expires').textContent).toBe(
      'À consommer avant : 26/11/2026 09:30',
    );
  });

  it('shows the weekday without the hour when asked, and prints only the card', async () => {
    const print = vi.fn(() => {
      expect(document.body.classList.contains('mise-printing-label')).toBe(true);
    });
    vi.stubGlobal('print', print);
    const { user } = renderWithProviders(
      <LabelPreview
        elementName="Yaourt"
        now={now}
        label={{
          ...newLabelValues('DLC'),
          type: 'expiration',
          expiration_duration: 24,
          show_expiration_weekday: true,
        }}
      />,
    );
    expect(screen.getByTestId('label-preview-expires').textContent).toBe(
      'Use by: Tuesday, 11/24/2026',
    );
    expect(screen.queryByTestId('label-preview-defrosted')).toBeNull();
    await user.click(screen.getByTestId('label-print'));
    expect(print).toHaveBeenCalledTimes(1);
    expect(document.body.classList.contains('mise-printing-label')).toBe(false);
  });
});
