import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { ComingSoonPage } from '../ui/coming-soon-page';
import { changeLanguage, detectInitialLanguage, i18n, languageStorageKey } from './i18n';
import { LanguagePicker } from './language-picker';

describe('i18n', () => {
  it('shows a missing key in brackets', () => {
    expect(i18n.t('nowhere.to.be.found')).toBe('[nowhere.to.be.found]');
  });

  it('renders a missing key in brackets on screen', () => {
    renderWithProviders(<ComingSoonPage areaKey="notAnArea" />);
    expect(screen.getByTestId('page-title').textContent).toBe('[areas.notAnArea]');
  });

  it('translates into each of the four languages, not copies of English', async () => {
    const titles: Record<string, string> = {};
    for (const language of ['fr', 'en', 'de', 'pl'] as const) {
      await changeLanguage(language);
      titles[language] = i18n.t('comingSoon.title');
    }
    expect(new Set(Object.values(titles)).size).toBe(4);
    expect(i18n.language).toBe('pl');
    expect(window.localStorage.getItem(languageStorageKey)).toBe('pl');
  });

  it('starts from the stored language, else the browser language, else English', () => {
    expect(detectInitialLanguage('de', ['fr-FR'])).toBe('de');
    expect(detectInitialLanguage(null, ['es-ES', 'pl-PL'])).toBe('pl');
    expect(detectInitialLanguage('xx', ['fr-CA'])).toBe('fr');
    expect(detectInitialLanguage(null, ['es-ES', 'it'])).toBe('en');
  });

  it('switches the screen language from the picker and remembers it', async () => {
    const { user } = renderWithProviders(
      <>
        <LanguagePicker />
        <ComingSoonPage areaKey="stores" />
      </>,
    );
    expect(screen.getByTestId('page-title').textContent).toBe('Stores');

    await user.click(screen.getByTestId('language-picker'));
    await user.click(await screen.findByRole('option', { name: 'Deutsch' }));

    expect((await screen.findByTestId('page-title')).textContent).toBe('Filialen');
    expect(screen.getByText('Dieser Bereich folgt in Kürze')).toBeTruthy();
    expect(window.localStorage.getItem(languageStorageKey)).toBe('de');
  });
});
