// The organisation tree beside the management screens: the caller's organisation subtree,
// a search box narrowing it by name or code, and the selected organisation.
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Empty, Input, Skeleton, Tag, Tree } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { ApartmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { OrgNode } from '@iotc/shared/platform';
import { usePermission } from '../../../lib/permissions.ts';
import { useOrgTree } from '../../../api/org-tree.ts';
import { filterOrgTree, orgPath } from './org-tree-model.ts';

interface AntTreeNode {
  key: string;
  title: ReactNode;
  children: AntTreeNode[];
}

function Highlight({ text, keyword }: { text: string; keyword: string }) {
  const needle = keyword.trim().toLowerCase();
  const at = needle ? text.toLowerCase().indexOf(needle) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="org-tree-match">{text.slice(at, at + needle.length)}</mark>
      {text.slice(at + needle.length)}
    </>
  );
}

function toAntTree(nodes: OrgNode[], keyword: string, disabledText: string): AntTreeNode[] {
  return nodes.map((n) => ({
    key: n.id,
    title: (
      <span className={n.status === 'active' ? 'org-tree-title' : 'org-tree-title org-tree-title-disabled'} data-testid={`org-node-${n.code}`}>
        <Highlight text={n.name} keyword={keyword} />
        {n.status !== 'active' ? (
          <Tag className="org-tree-tag" variant="filled">
            {disabledText}
          </Tag>
        ) : null}
      </span>
    ),
    children: toAntTree(n.children, keyword, disabledText),
  }));
}

/** At first the roots are open, and the way to the selected organisation. */
function initialExpansion(tree: OrgNode[], selectedId: string | undefined): string[] {
  const path = selectedId ? orgPath(tree, selectedId).slice(0, -1) : [];
  return Array.from(new Set([...tree.map((n) => n.id), ...path]));
}

export interface OrgTreePanelProps {
  selectedId: string | undefined;
  onSelect: (id: string | undefined) => void;
  /** A second click on the selected organisation clears the selection (a list filter). */
  allowDeselect?: boolean;
}

export function OrgTreePanel({ selectedId, onSelect, allowDeselect = false }: OrgTreePanelProps) {
  const { t } = useTranslation();
  const can = usePermission();
  const allowed = can('org:read');
  const query = useOrgTree(allowed);
  const tree = query.data;
  const [keyword, setKeyword] = useState('');
  const filtered = useMemo(() => filterOrgTree(tree ?? [], keyword), [tree, keyword]);
  const treeData = useMemo(() => toAntTree(filtered.nodes, keyword, t('system.common.disabled')), [filtered.nodes, keyword, t]);

  // Expansion follows the search: each new keyword opens the way to its matches, clearing it
  // goes back to the first view; in between the user opens and closes nodes freely.
  const stamp = tree ? keyword.trim().toLowerCase() : null;
  const [expandedFor, setExpandedFor] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Key[]>([]);
  if (tree && stamp !== expandedFor) {
    setExpandedFor(stamp);
    setExpanded(stamp ? filtered.expanded : initialExpansion(tree, selectedId));
  }

  // A newly selected organisation (just added, or chosen elsewhere) is brought into view.
  const [revealed, setRevealed] = useState<string | undefined>(selectedId);
  if (tree && selectedId !== revealed) {
    const above = selectedId ? orgPath(tree, selectedId).slice(0, -1) : [];
    setRevealed(selectedId);
    if (above.some((id) => !expanded.includes(id))) setExpanded((keys) => Array.from(new Set([...keys, ...above])));
  }

  // Without org:read the lists are still scoped by the server; there is just no tree to pick from.
  if (!allowed) return null;

  let body: ReactNode;
  if (query.isPending) {
    body = <Skeleton active title={false} paragraph={{ rows: 6 }} />;
  } else if (query.isError) {
    body = (
      <Outcome
        status="error"
        className="org-tree-error"
        subTitle={t('system.orgs.treeFailed')}
        extra={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (treeData.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword.trim() ? t('system.orgs.noMatch') : t('system.orgs.empty')} />;
  } else {
    body = (
      <Tree
        blockNode
        showIcon={false}
        treeData={treeData}
        expandedKeys={expanded}
        onExpand={setExpanded}
        selectedKeys={selectedId ? [selectedId] : []}
        onSelect={(keys, info) => {
          const key = keys[0];
          if (key !== undefined) onSelect(String(key));
          // antd reports a click on the selected node as deselecting it.
          else if (allowDeselect) onSelect(undefined);
          else onSelect(String(info.node.key));
        }}
      />
    );
  }

  return (
    <div className="org-tree-panel" data-testid="org-tree">
      <div className="org-tree-head">
        <ApartmentOutlined />
        <span>{t('system.orgs.tree')}</span>
      </div>
      <Input.Search
        allowClear
        className="org-tree-search"
        data-testid="org-tree-search"
        placeholder={t('system.orgs.searchPlaceholder')}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
      />
      <div className="org-tree-body">{body}</div>
    </div>
  );
}
