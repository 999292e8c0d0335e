import { Button, Group, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconTable } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { notifyError, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useRememberedFilter, useRememberedScroll } from '../../../shared/ui/use-remembered-list';
import {
  type TaskConfigurationListScope,
  useTaskConfigurationList,
} from '../api/get-task-configuration-list';
import { TaskConfigurationListRow, taskConfigurationRowPath } from './task-configuration-list-row';

export type TaskConfigurationListProps =
  | { level: 'database'; databaseId: string }
  | {
      level: 'store';
      storeId: string;
      /** A manager on a store that is not manager-owned: New and expert mode are refused. */
      isReadOnly: boolean;
    };

/** Below this width the expert (bulk) button is hidden (spec 001 §2.1; the app's mobile width). */
const mobileQuery = '(max-width: 749.98px)';

/** Where the list remembers its search, toggle and scroll, per database or store. */
function memoryKey(scope: TaskConfigurationListScope): string {
  return `mise.taskConfigurationList:${scope.level}:${scope.ownerId}`;
}

/**
 * The task configurations of the Tasks tab (spec 001 §2.1, §2.11): search, inactive toggle,
 * New and expert mode; search, toggle and scroll are kept per database or store.
 */
export function TaskConfigurationList(props: TaskConfigurationListProps) {
  const scope: TaskConfigurationListScope =
    props.level === 'database'
      ? { level: 'database', ownerId: props.databaseId }
      : { level: 'store', ownerId: props.storeId };
  return (
    <TaskConfigurationListPanel
      key={`${scope.level}:${scope.ownerId}`}
      scope={scope}
      isReadOnly={props.level === 'store' && props.isReadOnly}
    />
  );
}

function TaskConfigurationListPanel({
  scope,
  isReadOnly,
}: {
  scope: TaskConfigurationListScope;
  isReadOnly: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useCurrentUser();
  const isMobile = useMediaQuery(mobileQuery) ?? false;
  const storageKey = memoryKey(scope);
  const { search, setSearch, isInactiveIncluded, setIsInactiveIncluded, querySearch } =
    useRememberedFilter(storageKey);
  const configurations = useTaskConfigurationList(scope, {
    search: querySearch,
    isInactiveIncluded,
  });
  useRememberedScroll(storageKey, configurations.isSuccess && !configurations.isPlaceholderData);

  function refusePermission() {
    notifyError(t('errors.permission/denied'), { autoClose: saveErrorDurationMs });
  }

  function handleNew() {
    if (scope.level === 'database') {
      void navigate(`/taskConf?database=${encodeURIComponent(scope.ownerId)}`);
    } else if (isReadOnly) {
      refusePermission();
    } else {
      void navigate(`/storeTaskConf?store=${encodeURIComponent(scope.ownerId)}`);
    }
  }

  function handleExpertMode() {
    if (scope.level === 'database') {
      void navigate(`/bulkDatabaseTask?database=${encodeURIComponent(scope.ownerId)}`);
    } else if (isReadOnly) {
      refusePermission();
    } else {
      void navigate(`/bulkStoreTask?store=${encodeURIComponent(scope.ownerId)}`);
    }
  }

  const isExpertModeShown = viewer.role !== 'customer' && !isMobile;

  return (
    <div data-testid="task-configuration-list">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: 1, minWidth: 260 }}>
          <ListToolbar
            search={search}
            onSearchChange={setSearch}
            isInactiveIncluded={isInactiveIncluded}
            onInactiveChange={setIsInactiveIncluded}
            isFetching={configurations.isFetching && !configurations.isPending}
            testIdPrefix="task-configurations"
          />
        </div>
        <Group gap="sm" mb="md">
          {isExpertModeShown ? (
            <Button
              variant="default"
              leftSection={<IconTable size={16} />}
              onClick={handleExpertMode}
              data-testid="task-configurations-expert"
            >
              {t('taskConfiguration.expertMode')}
            </Button>
          ) : null}
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={handleNew}
            data-testid="task-configurations-new"
          >
            {t('common.new')}
          </Button>
        </Group>
      </Group>
      <QueryContent
        query={configurations}
        isEmpty={(items) => items.length === 0}
        emptyTitle={
          querySearch.trim() !== '' ? t('common.nothingFound') : t('taskConfiguration.empty')
        }
      >
        {(items) => (
          <Stack gap="xs" data-testid="task-configuration-rows">
            {items.map((item) => (
              <TaskConfigurationListRow
                key={item.key}
                item={item}
                to={taskConfigurationRowPath(scope, item)}
                isStoreLevel={scope.level === 'store'}
              />
            ))}
          </Stack>
        )}
      </QueryContent>
    </div>
  );
}
