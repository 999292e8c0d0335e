import { createTheme, Select } from '@mantine/core';

/** Spec 000 §9: a dropdown is at most the viewport height minus 50 px. */
const dropdownMaxHeight = 'calc(100vh - 50px)';

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  components: {
    Select: Select.extend({ defaultProps: { maxDropdownHeight: dropdownMaxHeight } }),
  },
});
