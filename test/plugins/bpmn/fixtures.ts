import type { TestKernel } from '../../support/kernel.js';

/** BPMN definitions the tests deploy, one per supported element (and their combinations). */
/** BPMN definitions around `body` (processes), with `extra` (messages, signals, errors) before them. */
export const wrap = (body: string, extra = ''): string => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:rt="urn:runtime" id="defs" targetNamespace="urn:test">
${extra}
${body}
</definitions>`;

export const userTaskXml = (processId = 'approval') =>
  wrap(`<process id="${processId}" name="Approval" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="approve"/>
  <userTask id="approve" name="Approve order"/>
  <sequenceFlow id="f2" sourceRef="approve" targetRef="decide"/>
  <exclusiveGateway id="decide" default="f4"/>
  <sequenceFlow id="f3" sourceRef="decide" targetRef="yes"><conditionExpression xsi:type="tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${environment.variables.approved}</conditionExpression></sequenceFlow>
  <sequenceFlow id="f4" sourceRef="decide" targetRef="no"/>
  <endEvent id="yes"/>
  <endEvent id="no"/>
</process>`);

export const simpleUserTaskXml = (processId: string) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="task"/>
  <userTask id="task" name="Do it"/>
  <sequenceFlow id="f2" sourceRef="task" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

export const timerXml = (processId: string, duration: string) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="wait"/>
  <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration>${duration}</timeDuration></timerEventDefinition></intermediateCatchEvent>
  <sequenceFlow id="f2" sourceRef="wait" targetRef="after"/>
  <userTask id="after"/>
  <sequenceFlow id="f3" sourceRef="after" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

export const boundaryTimerXml = (processId: string, duration: string) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
  <userTask id="review"/>
  <boundaryEvent id="late" attachedToRef="review"><timerEventDefinition><timeDuration>${duration}</timeDuration></timerEventDefinition></boundaryEvent>
  <sequenceFlow id="f2" sourceRef="review" targetRef="done"/>
  <sequenceFlow id="f3" sourceRef="late" targetRef="escalate"/>
  <userTask id="escalate"/>
  <sequenceFlow id="f4" sourceRef="escalate" targetRef="done"/>
  <endEvent id="done"/>
</process>`);

export const messageXml = (processId: string) =>
  wrap(
    `<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="paid"/>
  <intermediateCatchEvent id="paid"><messageEventDefinition messageRef="payment"/></intermediateCatchEvent>
  <sequenceFlow id="f2" sourceRef="paid" targetRef="shipped"/>
  <receiveTask id="shipped" messageRef="shipment"/>
  <sequenceFlow id="f3" sourceRef="shipped" targetRef="end"/>
  <endEvent id="end"/>
</process>`,
    `<message id="payment" name="payment-received" rt:correlationKey="order_id"/>
<message id="shipment" name="shipped"/>`,
  );

export const signalParallelXml = (processId: string) =>
  wrap(
    `<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="fork"/>
  <parallelGateway id="fork"/>
  <sequenceFlow id="a1" sourceRef="fork" targetRef="go"/>
  <intermediateCatchEvent id="go"><signalEventDefinition signalRef="goSignal"/></intermediateCatchEvent>
  <sequenceFlow id="a2" sourceRef="go" targetRef="join"/>
  <sequenceFlow id="b1" sourceRef="fork" targetRef="check"/>
  <userTask id="check"/>
  <sequenceFlow id="b2" sourceRef="check" targetRef="join"/>
  <parallelGateway id="join"/>
  <sequenceFlow id="j1" sourceRef="join" targetRef="end"/>
  <endEvent id="end"/>
</process>`,
    '<signal id="goSignal" name="go"/>',
  );

export const serviceXml = (processId: string, implementation: string, withErrorBoundary = false) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="publish"/>
  <serviceTask id="publish" implementation="${implementation}"/>
  ${withErrorBoundary ? '<boundaryEvent id="failed" attachedToRef="publish"><errorEventDefinition/></boundaryEvent><sequenceFlow id="e1" sourceRef="failed" targetRef="handle"/><userTask id="handle"/><sequenceFlow id="e2" sourceRef="handle" targetRef="end"/>' : ''}
  <sequenceFlow id="f2" sourceRef="publish" targetRef="after"/>
  <userTask id="after"/>
  <sequenceFlow id="f3" sourceRef="after" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

export const subProcessXml = (processId: string) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="sub"/>
  <subProcess id="sub">
    <startEvent id="subStart"/>
    <sequenceFlow id="s1" sourceRef="subStart" targetRef="inner"/>
    <userTask id="inner"/>
    <sequenceFlow id="s2" sourceRef="inner" targetRef="subEnd"/>
    <endEvent id="subEnd"/>
  </subProcess>
  <sequenceFlow id="f2" sourceRef="sub" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

export const scriptXml = (processId: string, script: string, withErrorBoundary = false) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="calc"/>
  <scriptTask id="calc" scriptFormat="javascript"><script><![CDATA[${script}]]></script></scriptTask>
  ${withErrorBoundary ? '<boundaryEvent id="failed" attachedToRef="calc"><errorEventDefinition/></boundaryEvent><sequenceFlow id="e1" sourceRef="failed" targetRef="handle"/><userTask id="handle"/><sequenceFlow id="e2" sourceRef="handle" targetRef="end"/>' : ''}
  <sequenceFlow id="f2" sourceRef="calc" targetRef="after"/>
  <userTask id="after"/>
  <sequenceFlow id="f3" sourceRef="after" targetRef="end"/>
  <endEvent id="end"/>
</process>`);

export const loopXml = (processId: string) =>
  wrap(`<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="a"/>
  <task id="a"/>
  <sequenceFlow id="f2" sourceRef="a" targetRef="b"/>
  <exclusiveGateway id="b"/>
  <sequenceFlow id="f3" sourceRef="b" targetRef="a"/>
</process>`);

export async function deploy(
  tk: TestKernel,
  xml: string,
  token?: string,
): Promise<{ key: string; process_id: string; version: number }> {
  const res = await tk.request('POST', '/bpmn/definitions', {
    raw: xml,
    contentType: 'application/octet-stream',
    ...(token ? { token } : {}),
  });
  if (res.status !== 201) throw new Error(`deploy failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function startInstance(tk: TestKernel, body: Record<string, unknown>, token?: string): Promise<any> {
  const res = await tk.request('POST', '/bpmn/instances', { body, ...(token ? { token } : {}) });
  if (res.status !== 201) throw new Error(`start failed: ${res.status} ${res.text}`);
  return res.body;
}

export function openTask(instance: any, activityId: string): string {
  const task = instance.tasks.find((t: any) => t.activity_id === activityId && t.state === 'open');
  if (!task) throw new Error(`no open task at ${activityId}: ${JSON.stringify(instance.tasks)}`);
  return task.id;
}

/** A service task run by a job worker (Zeebe's taskDefinition), its BPMN error caught by a boundary event into a user task. */
export const jobXml = (processId: string, type = 'charge') =>
  wrap(
    `<process id="${processId}" isExecutable="true">
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="charge"/>
  <serviceTask id="charge" name="Charge card">
    <extensionElements><zeebe:taskDefinition type="${type}" retries="3"/></extensionElements>
  </serviceTask>
  <boundaryEvent id="declined" attachedToRef="charge"><errorEventDefinition errorRef="declinedError"/></boundaryEvent>
  <sequenceFlow id="f2" sourceRef="charge" targetRef="end"/>
  <sequenceFlow id="f3" sourceRef="declined" targetRef="handle"/>
  <userTask id="handle" name="Handle declined card"/>
  <sequenceFlow id="f4" sourceRef="handle" targetRef="end2"/>
  <endEvent id="end"/>
  <endEvent id="end2"/>
</process>`,
    `<error id="declinedError" errorCode="DECLINED"/>`,
  ).replace('xmlns:rt="urn:runtime"', 'xmlns:rt="urn:runtime" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"');

/** fetch-and-lock as a worker does it. */
export async function fetchJobs(
  tk: TestKernel,
  body: { worker_id: string; types: string[]; max_jobs?: number; lock_duration_ms?: number; wait_ms?: number },
): Promise<any[]> {
  const res = await tk.request('POST', '/bpmn/jobs/fetch-and-lock', { body });
  if (res.status !== 200) throw new Error(`fetch-and-lock failed: ${res.status} ${res.text}`);
  return res.body.items;
}
