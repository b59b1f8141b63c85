-- Change notices for the in-process caches of the polled endpoints (apps/server/src/services/
-- poll-cache): every process LISTENs on tandem_changes and drops what a notice names. Payloads:
-- 'a:{agent}:{creator}' an agent's polled columns changed, 'r:{user}' a user's read marks changed,
-- 'x' who may see what changed (memberships, a repository's visibility or name). Postgres folds
-- identical notices of one transaction into one.
CREATE FUNCTION tandem_notify_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('tandem_changes', 'a:' || OLD.id || ':' || OLD.creator_id);
    RETURN OLD;
  END IF;
  PERFORM pg_notify('tandem_changes', 'a:' || NEW.id || ':' || NEW.creator_id);
  IF TG_OP = 'UPDATE' AND OLD.creator_id IS DISTINCT FROM NEW.creator_id THEN
    PERFORM pg_notify('tandem_changes', 'a:' || OLD.id || ':' || OLD.creator_id);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER agents_change_notice_insert_delete AFTER INSERT OR DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION tandem_notify_agent();
--> statement-breakpoint
CREATE TRIGGER agents_change_notice_update AFTER UPDATE ON agents FOR EACH ROW
  WHEN ((OLD.latest_timestamp, OLD.last_active, OLD.status, OLD.title, OLD.archived, OLD.creator_id,
         OLD.installation_id, OLD.repository_id)
        IS DISTINCT FROM
        (NEW.latest_timestamp, NEW.last_active, NEW.status, NEW.title, NEW.archived, NEW.creator_id,
         NEW.installation_id, NEW.repository_id))
  EXECUTE FUNCTION tandem_notify_agent();
--> statement-breakpoint
CREATE FUNCTION tandem_notify_read() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('tandem_changes', 'r:' || OLD.user_id);
    RETURN OLD;
  END IF;
  PERFORM pg_notify('tandem_changes', 'r:' || NEW.user_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_reads_change_notice AFTER INSERT OR UPDATE OR DELETE ON agent_reads
  FOR EACH ROW EXECUTE FUNCTION tandem_notify_read();
--> statement-breakpoint
CREATE FUNCTION tandem_notify_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tandem_changes', 'x');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION tandem_notify_access();
--> statement-breakpoint
CREATE TRIGGER repositories_change_notice_delete AFTER DELETE OR TRUNCATE ON repositories
  FOR EACH STATEMENT EXECUTE FUNCTION tandem_notify_access();
--> statement-breakpoint
CREATE TRIGGER repositories_change_notice_update AFTER UPDATE ON repositories FOR EACH ROW
  WHEN (OLD.agents_public IS DISTINCT FROM NEW.agents_public OR OLD.full_name IS DISTINCT FROM NEW.full_name)
  EXECUTE FUNCTION tandem_notify_access();
