import { Button, Group, Stack, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type StoreElementTab, storeElementTabs } from '@mise/shared/catalogue/constants';
import { IconPlus, IconTable } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { notifyError, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useRememberedFilter, useRememberedScroll } from '../../../shared/ui/use-remembered-list';
import { type ElementListScope, useElementList } from '../api/get-element-list';
import { ElementListRow, elementRowPath } from './element-list-row';

export type ElementListProps =
  | { level: 'database'; databaseId: string }
  | {
      level: 'store';
      storeId: string;
      /** A manager on a store that is not manager-owned: New and expert mode are refused. */
      isReadOnly: boolean;
    };

/** The store list's sub-tab travels in the URL, beside the screen's own `tab`. */
export const elementTabParam = 'elementTab';

/** Below this width the expert (bulk) button is hidden (spec 001 §2.1; the app's mobile width). */
const mobileQuery = '(max-width: 749.98px)';

/**
 * The Elements tab of the database and store screens (spec 001 §2.1, §2.5, §2.11): search,
 * inactive toggle, New, expert mode and, at store level, the temperature / delivery / probes
 * sub-tabs and the allergens button.
 */
export function ElementList(props: ElementListProps) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();

  if (props.level === 'database') {
    return (
      <ElementListPanel
        key={props.databaseId}
        scope={{ level: 'database', databaseId: props.databaseId }}
        isReadOnly={false}
      />
    );
  }

  const requested = searchParams.get(elementTabParam);
  const tab: StoreElementTab = storeElementTabs.includes(requested as StoreElementTab)
    ? (requested as StoreElementTab)
    : 'temperature';

  function handleTab(value: string | null) {
    const next = new URLSearchParams(searchParams);
    next.set(elementTabParam, value ?? 'temperature');
    setSearchParams(next, { replace: true });
  }

  return (
    <Tabs value={tab} onChange={handleTab} variant="pills" keepMounted={false}>
      <Tabs.List mb="md">
        {storeElementTabs.map((key) => (
          <Tabs.Tab key={key} value={key} data-testid={`element-tab-${key}`}>
            {t(`elementList.tabs.${key}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {storeElementTabs.map((key) => (
        <Tabs.Panel key={key} value={key}>
          <ElementListPanel
            key={`${props.storeId}:${key}`}
            scope={{ level: 'store', storeId: props.storeId, tab: key }}
            isReadOnly={props.isReadOnly}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** Where the list remembers its search, toggle and scroll, per database or store and tab. */
function memoryKey(scope: ElementListScope): string {
  return scope.level === 'database'
    ? `mise.elementList:database:${scope.databaseId}`
    : `mise.elementList:store:${scope.storeId}:${scope.tab}`;
}

/* ---------- One list ---------- */

type ElementListPanelProps = { scope: ElementListScope; isReadOnly: boolean };

function ElementListPanel({ scope, isReadOnly }: ElementListPanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useCurrentUser();
  const isMobile = useMediaQuery(mobileQuery) ?? false;
  const storageKey = memoryKey(scope);
  const { search, setSearch, isInactiveIncluded, setIsInactiveIncluded, querySearch } =
    useRememberedFilter(storageKey);
  const elements = useElementList(scope, { search: querySearch, isInactiveIncluded });
  useRememberedScroll(storageKey, elements.isSuccess && !elements.isPlaceholderData);

  function refusePermission() {
    notifyError(t('errors.permission/denied'), { autoClose: saveErrorDurationMs });
  }

  function handleNew() {
    if (scope.level === 'database') {
      // Customers read the database's elements only (spec 001 §6).
      if (viewer.role === 'customer') refusePermission();
      else void navigate(`/databaseElement?database=${encodeURIComponent(scope.databaseId)}`);
    } else if (isReadOnly) {
      refusePermission();
    } else {
      void navigate(`/newElement?store=${encodeURIComponent(scope.storeId)}`);
    }
  }

  function handleExpertMode() {
    if (scope.level === 'database') {
      void navigate(`/bulkDatabaseElement?database=${encodeURIComponent(scope.databaseId)}`);
    } else if (isReadOnly) {
      refusePermission();
    } else {
      void navigate(`/bulkStoreElement?store=${encodeURIComponent(scope.storeId)}`);
    }
  }

  const isExpertModeShown = viewer.role !== 'customer' && !isMobile;
  const emptyTitle =
    querySearch.trim() !== ''
      ? t('common.nothingFound')
      : scope.level === 'store' && scope.tab === 'probes'
        ? t('elementList.emptyProbes')
        : t('elementList.empty');

  return (
    <div data-testid="element-list">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: 1, minWidth: 260 }}>
          <ListToolbar
            search={search}
            onSearchChange={setSearch}
            isInactiveIncluded={isInactiveIncluded}
            onInactiveChange={setIsInactiveIncluded}
            isFetching={elements.isFetching && !elements.isPending}
            testIdPrefix="elements"
          />
        </div>
        <Group gap="sm" mb="md">
          {scope.level === 'store' ? (
            <Button
              component={Link}
              to={`/allergens?store=${encodeURIComponent(scope.storeId)}`}
              variant="default"
              data-testid="elements-allergens"
            >
              {t('areas.allergens')}
            </Button>
          ) : null}
          {isExpertModeShown ? (
            <Button
              variant="default"
              leftSection={<IconTable size={16} />}
              onClick={handleExpertMode}
              data-testid="elements-expert"
            >
              {t('elementList.expertMode')}
            </Button>
          ) : null}
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={handleNew}
            data-testid="elements-new"
          >
            {t('common.new')}
          </Button>
        </Group>
      </Group>
      <QueryContent
        query={elements}
        isEmpty={(items) => items.length === 0}
        emptyTitle={emptyTitle}
      >
        {(items) => (
          <Stack gap="xs" data-testid="element-rows">
            {items.map((item) => (
              <ElementListRow
                key={item.key}
                item={item}
                to={elementRowPath(scope, item)}
                isStoreLevel={scope.level === 'store'}
              />
            ))}
          </Stack>
        )}
      </QueryContent>
    </div>
  );
}
