import ServiceLifecycle
import TallyServer
import TallyStore

/// Evaluates the alert rules each hour (``AlertEvaluator``) and sends the webhook outbox
/// (``WebhookDeliverer``), until graceful shutdown; what was pending is sent after a restart.
struct AlertServices: Service {
    let evaluator: AlertEvaluator
    let deliverer: WebhookDeliverer

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await evaluator.run() }
            group.addTask { try? await deliverer.run() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }
}
