import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { foldsAllReadModels, isAllInOne, parseRole, projectionCheckpointName, runs } from './role.js';

describe('ROLE as a list of components', () => {
  it('reads every value it always took, and lists of components in any order', () => {
    expect(parseRole('all')).toEqual(['api', 'projections', 'processors']);
    expect(parseRole('api')).toEqual(['api']);
    expect(parseRole('processors, api')).toEqual(['api', 'processors']);
    expect(parseRole('api,relay')).toBeNull();
    expect(parseRole('')).toBeNull();
  });

  it('runs the relay only with projections, the processors only with processors', () => {
    expect(runs('all', 'projections')).toBe(true);
    expect(runs('api', 'projections')).toBe(false);
    expect(runs('projections', 'processors')).toBe(false);
    expect(runs('api,processors', 'processors')).toBe(true);
  });

  it('folds every read model unless the process runs processors alone', () => {
    expect(foldsAllReadModels('processors')).toBe(false);
    expect(foldsAllReadModels('processors,api')).toBe(true);
    expect(foldsAllReadModels('projections')).toBe(true);
  });

  it('keeps the checkpoint names of the single roles, and names a list the same in any order', () => {
    expect(isAllInOne('processors,projections,api')).toBe(true);
    expect(projectionCheckpointName('all', 'h')).toBe('projections');
    expect(projectionCheckpointName('api,projections,processors', 'h')).toBe('projections');
    expect(projectionCheckpointName('api', 'h')).toBe('projections-api-h');
    expect(projectionCheckpointName('processors,api', 'h')).toBe(projectionCheckpointName('api,processors', 'h'));
  });

  it('refuses at start a ROLE that names something else, saying what it takes', () => {
    expect(() => loadConfig({ ROLE: 'api,relay' })).toThrow(/ROLE: is `all` or a comma-separated list of api, projections, processors/);
    expect(() => loadConfig({ ROLE: 'api,processors' })).toThrow(/ROLE=api,processors needs EVENT_STORE=esdb/);
  });
});
