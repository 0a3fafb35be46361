import { project } from 'pipewright';

/** The spec's project: org `default`, a colour, and empty description, tags and modules. */
export const seedProject = project({
  identifier: 'pipewright_seed',
  name: 'pipewright seed',
  org: 'default',
  color: '#0063F7',
  description: '',
  tags: {},
  modules: [],
});
