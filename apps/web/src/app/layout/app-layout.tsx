// Mantine's full stylesheet (the shell loads the sign-in screen's part only: shell-styles.css).
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
import { Anchor, AppShell, Burger } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { isNavigationVisible } from '@mise/shared/navigation/rules';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../../shared/auth/get-me';
import { useAppSession } from '../../shared/session/app-session';
import { DemoBanner } from '../../shared/ui/demo-banner';
import { AppHeader } from './app-header';
import { NavigationPanel } from './navigation-panel';

/** Spec 000 §9: below this width the navigation panel collapses behind a burger. */
export const mobileBreakpointPx = 750;

export function AppLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const { initialPage } = useAppSession();
  const [isNavigationOpened, { toggle, close }] = useDisclosure(false);
  const isMobile = useMediaQuery(`(max-width: ${mobileBreakpointPx - 0.02}px)`) ?? false;
  const isNavigationShown = isNavigationVisible(pathname, initialPage);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={
        isNavigationShown
          ? {
              width: 240,
              breakpoint: mobileBreakpointPx,
              collapsed: { mobile: !isNavigationOpened },
            }
          : undefined
      }
      padding="md"
    >
      <Anchor href="#main-content" className="skip-link" data-testid="skip-link">
        {t('navigation.skipToContent')}
      </Anchor>
      <AppShell.Header>
        <AppHeader
          user={user}
          isCompact={isMobile}
          burger={
            isNavigationShown && isMobile ? (
              <Burger
                opened={isNavigationOpened}
                onClick={toggle}
                size="sm"
                aria-label={t('navigation.toggle')}
                data-testid="navigation-burger"
              />
            ) : null
          }
        />
      </AppShell.Header>
      {isNavigationShown ? (
        <AppShell.Navbar p="xs">
          <NavigationPanel role={user.role} onNavigate={close} isCompact={isMobile} />
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main id="main-content" tabIndex={-1}>
        <DemoBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
