import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import fr from '../../locales/fr.json';
import pl from '../../locales/pl.json';
import { buildUser } from '../../test/factories';
import { mockApi } from '../../test/mock-api';
import { renderWithProviders } from '../../test/render-app';
import { meQueryKey } from '../auth/get-me';
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

  it('has every key in every language (only the active language is loaded: no fallback)', () => {
    /** Key paths, plural forms folded into their base key (Polish has more forms than English). */
    function keysOf(tree: object, prefix = ''): Set<string> {
      const keys = new Set<string>();
      for (const [key, value] of Object.entries(tree)) {
        const path = `${prefix}${key}`;
        if (value && typeof value === 'object') {
          for (const nested of keysOf(value, `${path}.`)) keys.add(nested);
        } else keys.add(path.replace(/_(zero|one|two|few|many|other)$/, ''));
      }
      return keys;
    }
    const english = [...keysOf(en)].sort();
    for (const [language, translation] of Object.entries({ fr, de, pl })) {
      expect([...keysOf(translation)].sort(), language).toEqual(english);
    }
  });

  it('names a store and a distributor with one word per language (French établissement, Polish lokal, German Vertriebspartner)', () => {
    function entriesOf(tree: object, prefix = ''): [string, string][] {
      return Object.entries(tree).flatMap(([key, value]): [string, string][] =>
        value && typeof value === 'object'
          ? entriesOf(value, `${prefix}${key}.`)
          : [[`${prefix}${key}`, String(value)]],
      );
    }
    expect(entriesOf(fr).filter(([, text]) => /magasin/i.test(text))).toEqual([]);
    const polish = entriesOf(pl);
    expect(polish.filter(([, text]) => /placówk/i.test(text))).toEqual([]);
    // "Sklep" is the distributor's shop only (where the English text says shop).
    const english = new Map(entriesOf(en));
    expect(
      polish.filter(([key, text]) => /sklep/i.test(text) && !/shop/i.test(english.get(key) ?? '')),
    ).toEqual([]);
    expect(pl.areas.store).toBe('Lokal');
    expect(entriesOf(de).filter(([, text]) => /händler/i.test(text))).toEqual([]);
    expect(de.areas.distributor).toBe('Vertriebspartner');
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
    // The server reads the cookie to preload the chosen language with the page.
    expect(document.cookie).toContain('mise_language=de');
  });

  it("tells the server a signed-in user's new language (their e-mails and pushes), not a visitor's", async () => {
    const api = mockApi({ 'PUT /api/me/language': { status: 204 } });
    const visitor = renderWithProviders(<LanguagePicker />);
    await visitor.user.click(screen.getByTestId('language-picker'));
    await visitor.user.click(await screen.findByRole('option', { name: 'Polski' }));
    await waitFor(() => expect(i18n.language).toBe('pl'));
    expect(api.callsTo('PUT', '/api/me/language')).toHaveLength(0);
    visitor.unmount();

    const member = renderWithProviders(<LanguagePicker />);
    member.queryClient.setQueryData(meQueryKey, buildUser());
    await member.user.click(screen.getByTestId('language-picker'));
    await member.user.click(await screen.findByRole('option', { name: 'Français' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/me/language')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/me/language')[0]?.body).toEqual({ language: 'fr' });
  });
});
