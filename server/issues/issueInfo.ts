// An issue as clients see it: the row plus its work agent's live facts.
import type { IssueInfo } from '../../shared/protocol/issues';
import type { ConversationService } from '../conversations/conversationService';
import { workAgentName } from './issueIds';
import type { IssueRow } from './issueStore';

export function issueInfo(conv: ConversationService, r: IssueRow): IssueInfo {
  const agent = conv.store.byName(workAgentName(r.id));
  return {
    id: r.id,
    project: r.project,
    number: r.number,
    title: r.title,
    body: r.body,
    branch: r.branch,
    workspace: r.workspace,
    createdAt: r.createdAt,
    agent: agent
      ? { id: agent.id, name: agent.name, alive: conv.facts(agent.id).alive, activity: conv.activity(agent) }
      : null,
  };
}
