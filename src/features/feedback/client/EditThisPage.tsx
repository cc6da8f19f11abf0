/** "Edit this page" (the theme's link), then "Report a problem with this page" beside it. */
import React, {type ReactNode} from 'react';
import EditThisPage from '@theme-original/EditThisPage';
import type EditThisPageType from '@theme/EditThisPage';
import type {WrapperProps} from '@docusaurus/types';
import ReportProblem from './ReportProblem';
import styles from './ReportProblem.module.css';

type Props = WrapperProps<typeof EditThisPageType>;

export default function EditThisPageWrapper(props: Props): ReactNode {
  return (
    <span className={styles.row}>
      <EditThisPage {...props} />
      <ReportProblem />
    </span>
  );
}
