/**
 * The header's version menu: "v8" (this site), "Latest (v11)" (the same page in the framework's
 * current docs) and the archived majors (their home pages only: see ../versions.ts).
 *
 * In the header (997 px and up) it is a disclosure button with a list of links, like "More"
 * (src/features/shell/client/MoreMenu): Enter, Space or Arrow Down opens it and Arrow Down moves into it;
 * Arrow Up/Down, Home and End move between its links; Tab leaves it (and closes it); Escape
 * closes it and gives the focus back to the button; a click elsewhere closes it too.
 * In the phone drawer (`mobile`) it is a collapsible group of the drawer's menu.
 */
import React, {type ReactNode, useEffect, useId, useRef, useState} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {translate} from '@docusaurus/Translate';
import {archivedVersions, latestMajor, latestUrl, siteMajor} from '../versions';
import {useDismiss} from '@site/src/features/shell/client/useDismiss';
import styles from './VersionMenu.module.css';

interface Entry {
  readonly key: string;
  readonly label: string;
  readonly href?: string;
  readonly to?: string;
  readonly current?: boolean;
  /** A small line under the label. */
  readonly detail?: string;
}

interface Group {
  readonly label: string;
  readonly entries: readonly Entry[];
}

/** The menu's groups for the page at `pathname`. */
function useGroups(): Group[] {
  const {pathname} = useLocation();
  return [
    {
      label: translate({id: 'site.versionMenu.thisSite', message: 'This site'}),
      entries: [
        {
          key: 'current',
          label: `v${siteMajor}`,
          to: pathname,
          current: true,
          detail: translate({id: 'site.versionMenu.currentDetail', message: 'You are here'}),
        },
      ],
    },
    {
      label: translate({id: 'site.versionMenu.latestGroup', message: 'Current docs'}),
      entries: [
        {
          key: 'latest',
          label: translate(
            {id: 'site.versionMenu.latest', message: 'Latest (v{major})'},
            {major: latestMajor},
          ),
          href: latestUrl(pathname),
          detail: translate({id: 'site.versionMenu.latestDetail', message: 'This page there'}),
        },
      ],
    },
    {
      label: translate({id: 'site.versionMenu.archived', message: 'Archived'}),
      entries: archivedVersions.map((version) => ({
        key: version.id,
        label: version.id,
        href: version.url,
        detail: translate({id: 'site.versionMenu.archivedDetail', message: 'Home page only'}),
      })),
    },
  ];
}

const buttonLabel = () =>
  translate(
    {id: 'site.versionMenu.button', message: 'v{major}, documentation version'},
    {major: siteMajor},
  );

function EntryLink({entry, className}: {entry: Entry; className: string}): ReactNode {
  return (
    <Link
      className={className}
      {...(entry.href ? {href: entry.href} : {to: entry.to})}
      // The current page itself (the 404 page's path included): nothing to check.
      data-noBrokenLinkCheck
      aria-current={entry.current ? 'page' : undefined}
      data-version-entry={entry.key}
    >
      <span className={styles.label}>{entry.label}</span>
      {entry.detail ? <span className={styles.detail}>{entry.detail}</span> : null}
    </Link>
  );
}

function DesktopMenu(): ReactNode {
  const groups = useGroups();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  // Where the focus goes once the list shows: its first or last link.
  const pendingFocus = useRef<'first' | 'last' | null>(null);
  const id = useId();

  const links = () => Array.from(list.current?.querySelectorAll<HTMLElement>('a') ?? []);

  useEffect(() => {
    if (!open) return undefined;
    if (pendingFocus.current) {
      const all = links();
      (pendingFocus.current === 'first' ? all[0] : all[all.length - 1])?.focus();
      pendingFocus.current = null;
    }
  }, [open]);
  const onBlur = useDismiss(open, setOpen, root, button);

  const onButtonKey = (event: React.KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const where = event.key === 'ArrowDown' ? 'first' : 'last';
      if (open) {
        const all = links();
        (where === 'first' ? all[0] : all[all.length - 1])?.focus();
      } else {
        pendingFocus.current = where;
        setOpen(true);
      }
    }
  };

  const onListKey = (event: React.KeyboardEvent) => {
    const all = links();
    const index = all.indexOf(document.activeElement as HTMLElement);
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = (index + 1) % all.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + all.length) % all.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = all.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    all[next]?.focus();
  };

  return (
    <div ref={root} className={clsx('navbar__item', styles.versions)} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className={clsx('navbar__link', styles.button)}
        aria-label={buttonLabel()}
        aria-expanded={open}
        aria-controls={id}
        data-version-menu-button=""
        onClick={() => setOpen((current) => !current)}
        onKeyDown={onButtonKey}
      >
        {`v${siteMajor}`}
        <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
          <path d="M6 9l6 6 6-6" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
      </button>
      <div
        ref={list}
        id={id}
        className={styles.menu}
        hidden={!open}
        role="group"
        aria-label={translate({id: 'site.versionMenu.label', message: 'Documentation versions'})}
        onKeyDown={onListKey}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('a')) setOpen(false);
        }}
      >
        {groups.map((group) => (
          <Section key={group.label} group={group} linkClass={styles.link} />
        ))}
      </div>
    </div>
  );
}

function Section({group, linkClass}: {group: Group; linkClass: string}): ReactNode {
  const headingId = useId();
  return (
    <div className={styles.group}>
      <span id={headingId} className={styles.groupLabel}>
        {group.label}
      </span>
      <ul aria-labelledby={headingId} className={styles.list}>
        {group.entries.map((entry) => (
          <li key={entry.key}>
            <EntryLink entry={entry} className={linkClass} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** In the drawer: a collapsible group, closed at first, like the drawer's other groups. */
function MobileMenu(): ReactNode {
  const groups = useGroups();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className={clsx('menu__list-item', !open && 'menu__list-item--collapsed')}>
      <button
        type="button"
        className={clsx(
          'menu__link',
          'menu__link--sublist',
          'menu__link--sublist-caret',
          styles.mobileButton,
        )}
        aria-expanded={open}
        aria-controls={id}
        data-version-menu-button=""
        onClick={() => setOpen((current) => !current)}
      >
        {translate(
          {id: 'site.versionMenu.mobileButton', message: 'Version: v{major}'},
          {major: siteMajor},
        )}
      </button>
      <div id={id} hidden={!open} className={styles.mobileList}>
        {groups.map((group) => (
          <Section key={group.label} group={group} linkClass="menu__link" />
        ))}
      </div>
    </li>
  );
}

export default function VersionMenu({mobile}: {mobile?: boolean}): ReactNode {
  return mobile ? <MobileMenu /> : <DesktopMenu />;
}
