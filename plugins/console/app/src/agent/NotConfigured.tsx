/**
 * What the panel says when the deployment has no model provider (every agent route answers 501
 * not_configured): who can change that and how, instead of a chat that cannot answer.
 */
export function NotConfigured() {
  return (
    <section className="agent-not-configured" aria-labelledby="agent-not-configured-title">
      <h3 id="agent-not-configured-title">No model provider in this deployment</h3>
      <p>
        The server answered <code>not_configured</code> (501): the in-product agent needs a language model, and none is
        configured here. The rest of the console, and MCP for your own agents, work as usual.
      </p>
      <p>
        An operator sets one in the profile (<code>settings.agent</code>) or in the environment, for example:
      </p>
      <pre tabIndex={0}>
        {
          'RUNTIME_AGENT_PROVIDER=openai\nRUNTIME_AGENT_BASE_URL=http://127.0.0.1:11434/v1\nRUNTIME_AGENT_MODEL=llama3.1'
        }
      </pre>
      <p>
        See <strong>“Configuring a provider”</strong> in the agent guide (<code>docs/guides/agent.md</code>) for OpenAI,
        Anthropic and local models.
      </p>
    </section>
  );
}
