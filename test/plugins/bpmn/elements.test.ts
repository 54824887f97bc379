import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { deploy, openTask, startInstance, wrap } from './fixtures.js';

/**
 * The element kinds of the guide's table beyond the everyday ones, each run on its happy path
 * through the API: a small model, the steps a user takes (complete a task, send a message or a
 * signal), and where the instance ends up — its state and the activities it passed and did not.
 */

type Step =
  | { complete: string; variables?: Record<string, unknown> }
  | { message: string; variables?: Record<string, unknown> }
  | { signal: string }
  | { waitFor: string }
  | { openTasks: Record<string, number> };

interface ElementCase {
  title: string;
  process: string;
  extra?: string;
  variables?: Record<string, unknown>;
  steps: Step[];
  state: 'completed' | 'active';
  passed: string[];
  skipped?: string[];
  /** Open user tasks at the end, by activity id, with how many of each. */
  openTasks?: Record<string, number>;
}

const CAMUNDA = 'http://camunda.org/schema/1.0/bpmn';
const ZEEBE = 'http://camunda.org/schema/zeebe/1.0';
const X = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="tFormalExpression"';

const CASES: ElementCase[] = [
  {
    title: 'manual and send tasks pass through; a terminate end event ends the instance with a branch still open',
    process: `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/>
      <sequenceFlow id="a1" sourceRef="fork" targetRef="manual"/><manualTask id="manual"/>
      <sequenceFlow id="a2" sourceRef="manual" targetRef="done"/><endEvent id="done"><terminateEventDefinition/></endEvent>
      <sequenceFlow id="b1" sourceRef="fork" targetRef="never"/><userTask id="never"/>
      <sequenceFlow id="b2" sourceRef="never" targetRef="e"/><endEvent id="e"/>`,
    steps: [],
    state: 'completed',
    passed: ['manual', 'done'],
    skipped: ['e'],
    openTasks: {},
  },
  {
    title:
      'a parallel multi-instance user task makes one task per item of its cardinality, and goes on when all are done',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
      <userTask id="review"><multiInstanceLoopCharacteristics isSequential="false"><loopCardinality ${X}>3</loopCardinality></multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f2" sourceRef="review" targetRef="after"/><userTask id="after"/>
      <sequenceFlow id="f3" sourceRef="after" targetRef="e"/><endEvent id="e"/>`,
    steps: [{ complete: 'review' }, { complete: 'review' }, { complete: 'review' }],
    state: 'active',
    passed: ['review'],
    openTasks: { after: 1 },
  },
  {
    title: 'a sequential multi-instance user task opens its tasks one at a time',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
      <userTask id="review"><multiInstanceLoopCharacteristics isSequential="true"><loopCardinality ${X}>2</loopCardinality></multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f2" sourceRef="review" targetRef="e"/><endEvent id="e"/>`,
    steps: [{ openTasks: { review: 1 } }, { complete: 'review' }, { openTasks: { review: 1 } }, { complete: 'review' }],
    state: 'completed',
    passed: ['review', 'e'],
  },
  {
    title:
      'a multi-instance user task over a collection (camunda:collection, elementVariable) with a completion condition',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
      <userTask id="review"><multiInstanceLoopCharacteristics isSequential="false" camunda:collection="\${environment.variables.reviewers}" camunda:elementVariable="reviewer">
        <completionCondition ${X}>\${nrOfCompletedInstances >= 2}</completionCondition></multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f2" sourceRef="review" targetRef="e"/><endEvent id="e"/>`,
    variables: { reviewers: ['ann', 'bob', 'cy'] },
    steps: [{ openTasks: { review: 3 } }, { complete: 'review' }, { complete: 'review' }],
    state: 'completed',
    passed: ['review', 'e'],
    openTasks: {},
  },
  {
    title: 'a multi-instance user task over a collection in Zeebe’s form (zeebe:loopCharacteristics, FEEL condition)',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
      <userTask id="review"><multiInstanceLoopCharacteristics isSequential="true">
        <extensionElements><zeebe:loopCharacteristics inputCollection="= reviewers" inputElement="reviewer"/></extensionElements>
        <completionCondition ${X}>= numberOfCompletedInstances >= 1</completionCondition></multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f2" sourceRef="review" targetRef="e"/><endEvent id="e"/>`,
    variables: { reviewers: ['ann', 'bob'] },
    steps: [{ openTasks: { review: 1 } }, { complete: 'review' }],
    state: 'completed',
    passed: ['review', 'e'],
    openTasks: {},
  },
  {
    title: 'an event-based gateway takes the branch whose event comes first (a message before a long timer)',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="gw"/>
      <eventBasedGateway id="gw"/>
      <sequenceFlow id="f2" sourceRef="gw" targetRef="paid"/>
      <intermediateCatchEvent id="paid"><messageEventDefinition messageRef="payment"/></intermediateCatchEvent>
      <sequenceFlow id="f3" sourceRef="gw" targetRef="late"/>
      <intermediateCatchEvent id="late"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f4" sourceRef="paid" targetRef="ok"/><endEvent id="ok"/>
      <sequenceFlow id="f5" sourceRef="late" targetRef="cancelled"/><endEvent id="cancelled"/>`,
    extra: '<message id="payment" name="payment-received"/>',
    steps: [{ waitFor: 'paid' }, { message: 'payment-received' }],
    state: 'completed',
    passed: ['gw', 'paid', 'ok'],
    skipped: ['cancelled'],
  },
  {
    title: 'an inclusive gateway takes every branch whose condition holds and joins them',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="split"/>
      <inclusiveGateway id="split"/>
      <sequenceFlow id="a" sourceRef="split" targetRef="ta"><conditionExpression ${X}>\${environment.variables.a}</conditionExpression></sequenceFlow>
      <sequenceFlow id="b" sourceRef="split" targetRef="tb"><conditionExpression ${X}>\${environment.variables.b}</conditionExpression></sequenceFlow>
      <sequenceFlow id="c" sourceRef="split" targetRef="tc"><conditionExpression ${X}>\${environment.variables.c}</conditionExpression></sequenceFlow>
      <task id="ta"/><task id="tb"/><task id="tc"/>
      <sequenceFlow id="ja" sourceRef="ta" targetRef="join"/><sequenceFlow id="jb" sourceRef="tb" targetRef="join"/><sequenceFlow id="jc" sourceRef="tc" targetRef="join"/>
      <inclusiveGateway id="join"/><sequenceFlow id="fe" sourceRef="join" targetRef="e"/><endEvent id="e"/>`,
    variables: { a: true, b: false, c: true },
    steps: [],
    state: 'completed',
    passed: ['ta', 'tc', 'join', 'e'],
    skipped: ['tb'],
  },
  {
    title: 'an escalation thrown in a subprocess is caught by the boundary event on it',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="s1" sourceRef="ss" targetRef="raise"/>
        <endEvent id="raise"><escalationEventDefinition escalationRef="tooBig"/></endEvent></subProcess>
      <boundaryEvent id="caught" attachedToRef="sub"><escalationEventDefinition escalationRef="tooBig"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="sub" targetRef="normal"/><endEvent id="normal"/>
      <sequenceFlow id="f3" sourceRef="caught" targetRef="manager"/><userTask id="manager"/>
      <sequenceFlow id="f4" sourceRef="manager" targetRef="escalated"/><endEvent id="escalated"/>`,
    extra: '<escalation id="tooBig" escalationCode="TOO_BIG"/>',
    steps: [{ complete: 'manager' }],
    state: 'completed',
    passed: ['raise', 'caught', 'manager', 'escalated'],
    skipped: ['normal'],
  },
  {
    title: 'a link throw event continues at its link catch event',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="goto"/>
      <intermediateThrowEvent id="goto"><linkEventDefinition name="next"/></intermediateThrowEvent>
      <intermediateCatchEvent id="landing"><linkEventDefinition name="next"/></intermediateCatchEvent>
      <sequenceFlow id="f2" sourceRef="landing" targetRef="e"/><endEvent id="e"/>`,
    steps: [],
    state: 'completed',
    passed: ['goto', 'landing', 'e'],
  },
  {
    title: 'a timer with a date in the past fires at once',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="at"/>
      <intermediateCatchEvent id="at"><timerEventDefinition><timeDate>2020-01-01T00:00:00Z</timeDate></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f2" sourceRef="at" targetRef="e"/><endEvent id="e"/>`,
    steps: [],
    state: 'completed',
    passed: ['at', 'e'],
  },
  {
    title: 'a non-interrupting signal boundary event opens a second path while the task stays open',
    process: `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="work"/>
      <userTask id="work"/>
      <boundaryEvent id="note" attachedToRef="work" cancelActivity="false"><signalEventDefinition signalRef="notice"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="work" targetRef="e"/><endEvent id="e"/>
      <sequenceFlow id="f3" sourceRef="note" targetRef="inform"/><userTask id="inform"/>
      <sequenceFlow id="f4" sourceRef="inform" targetRef="e2"/><endEvent id="e2"/>`,
    extra: '<signal id="notice" name="notice"/>',
    steps: [{ waitFor: 'work' }, { signal: 'notice' }],
    state: 'active',
    passed: ['note'],
    openTasks: { work: 1, inform: 1 },
  },
];

describe('bpmn: the rarer element kinds run as the guide says', function () {
  this.timeout(60_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'audit', 'logs', 'streams', 'bpmn'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  /** The activities an instance went through (not those it discarded: a branch not taken, an event not caught). */
  const passedIn = (row: { history: Array<{ activity_id: string; outcome: string | null }> }) =>
    new Set(row.history.filter((h) => h.outcome !== 'discarded').map((h) => h.activity_id));
  const openTasksOf = (row: { tasks: Array<{ activity_id: string; state: string }> }) => {
    const open: Record<string, number> = {};
    for (const t of row.tasks) if (t.state === 'open') open[t.activity_id] = (open[t.activity_id] ?? 0) + 1;
    return open;
  };
  const instance = async (id: string) => (await tk.request('GET', `/bpmn/instances/${id}`)).body;

  for (const [i, c] of CASES.entries()) {
    it(c.title, async () => {
      const processId = `element-${i}`;
      const xml = wrap(`<process id="${processId}" isExecutable="true">${c.process}</process>`, c.extra ?? '');
      await deploy(
        tk,
        xml.replace(
          'xmlns:rt="urn:runtime"',
          `xmlns:rt="urn:runtime" xmlns:camunda="${CAMUNDA}" xmlns:zeebe="${ZEEBE}"`,
        ),
      );
      const started = await startInstance(tk, {
        process_id: processId,
        business_key: `bk-${i}`,
        variables: c.variables ?? {},
      });
      for (const step of c.steps) {
        if ('openTasks' in step) {
          await until(
            async () => JSON.stringify(openTasksOf(await instance(started.id))) === JSON.stringify(step.openTasks),
            10_000,
            { what: `open tasks ${JSON.stringify(step.openTasks)}` },
          ).catch(async (err) => {
            throw new Error(`${(err as Error).message}: ${JSON.stringify(openTasksOf(await instance(started.id)))}`);
          });
        } else if ('waitFor' in step) {
          await until(
            async () =>
              (await instance(started.id)).activities.some(
                (a: { activity_id: string }) => a.activity_id === step.waitFor,
              ),
            10_000,
            { what: `the instance waits at ${step.waitFor}` },
          );
        } else if ('complete' in step) {
          const current = await until(
            async () => {
              const row = await instance(started.id);
              return row.tasks.some(
                (t: { activity_id: string; state: string }) => t.activity_id === step.complete && t.state === 'open',
              )
                ? row
                : undefined;
            },
            10_000,
            { what: `an open task at ${step.complete}` },
          );
          const res = await tk.request('POST', `/bpmn/tasks/${openTask(current, step.complete)}/complete`, {
            body: { variables: step.variables ?? {} },
          });
          expect(res.status, res.text).to.equal(200);
        } else if ('message' in step) {
          const res = await tk.request('POST', '/bpmn/messages', {
            body: { name: step.message, variables: step.variables ?? {} },
          });
          expect(res.status, res.text).to.be.oneOf([200, 202]);
        } else {
          const res = await tk.request('POST', '/bpmn/signals', { body: { name: step.signal } });
          expect(res.status, res.text).to.be.oneOf([200, 202]);
        }
      }
      const end = await until(
        async () => {
          const row = await instance(started.id);
          return row.state === c.state && (c.state !== 'active' || c.passed.every((a) => passedIn(row).has(a)))
            ? row
            : undefined;
        },
        10_000,
        { what: `the instance ${c.state}` },
      ).catch(async (err) => {
        throw new Error(`${(err as Error).message}: ${JSON.stringify(await instance(started.id))}`);
      });
      const passed = passedIn(end);
      for (const a of c.passed) expect(passed.has(a), `passed ${a}: ${[...passed].join(', ')}`).to.equal(true);
      for (const a of c.skipped ?? []) expect(passed.has(a), `did not pass ${a}`).to.equal(false);
      expect(end.incidents ?? []).to.deep.equal([]);
      if (c.openTasks) expect(openTasksOf(end)).to.deep.equal(c.openTasks);
    });
  }
});
