// Names: resolved on the resolver's thread, again when resolv.conf changes; stale answers dropped by generation.
extension ReachabilityMonitor {
    /// Starts the resolver and the `resolv.conf` watch when some target is a name, and asks for every name.
    func startResolving() throws(SensorError) {
        guard targets.contains(where: { $0.literalAddress == nil }) else { return }
        let resolver = HostResolver(namespace: namespace, lookup: lookupName) { [weak self] request, outcome in
            self?.resolved(request, outcome)
        }
        let watch = ResolvConfWatch(etcRoot: etcRoot, eventLoop: driver.loop) { [weak self] in self?.resolveNames() }
        let stale = state.withLock { state -> (HostResolver?, ResolvConfWatch?) in
            defer {
                state.resolver = resolver
                state.resolvConfWatch = watch
            }
            return (state.resolver, state.resolvConfWatch)
        }
        stale.0?.close()
        stale.1?.stop()
        watch.start()
        resolveNames()
    }

    /// Asks the resolver for every name again, under new generations: answers still on their way are dropped.
    /// The last answers stay until the new ones come.
    func resolveNames() {
        let (resolver, requests) = state.withLock { state -> (HostResolver?, [HostResolver.Request]) in
            var requests: [HostResolver.Request] = []
            for (index, target) in targets.enumerated() where target.literalAddress == nil {
                state.resolveGenerations[index] &+= 1
                requests.append(
                    HostResolver.Request(generation: state.resolveGenerations[index], index: index, host: target.host))
            }
            return (state.resolver, requests)
        }
        guard let resolver else { return }
        do throws(SensorError) {
            for request in requests { try resolver.submit(request) }
        } catch {
            state.withLock { state in
                for request in requests { state.resolutions[request.index] = .failed("\(error)") }
            }
            evaluate()
        }
    }

    /// Keeps an answer of the current generation and looks the targets up again; drops a stale one.
    func resolved(_ request: HostResolver.Request, _ outcome: HostResolver.Outcome) {
        let kept = state.withLock { state -> Bool in
            guard request.index < state.resolutions.count,
                state.resolveGenerations[request.index] == request.generation
            else { return false }
            switch outcome {
            case .addresses(let addresses): state.resolutions[request.index] = .resolved(addresses)
            case .failed(let reason): state.resolutions[request.index] = .failed(reason)
            }
            return true
        }
        if kept { evaluate() }
    }
}
