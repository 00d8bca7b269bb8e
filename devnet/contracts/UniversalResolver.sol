// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// A minimal ENS Universal Resolver for the devnet (written for Latch): the entry point viem's
// `getEnsAddress` / `getEnsText` call, `resolveWithGateways(name, data, gateways)`. It finds the
// name's resolver in the registry (ENSIP-10: the nearest ancestor with one), calls it, and when
// the resolver asks for an offchain lookup (EIP-3668) it re-asks it through the batch-gateway
// protocol (`IBatchGateway.query`, which viem answers locally for `x-batch-gateway:true`), so the
// gateway sees the resolver as `sender`; `resolveCallback` hands the answer to the resolver's
// own callback, which verifies it.

interface IENS {
    function resolver(bytes32 node) external view returns (address);
}

interface IExtendedResolver {
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory);
}

interface IBatchGateway {
    struct Request {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Request[] memory requests) external view returns (bool[] memory failures, bytes[] memory responses);
}

contract UniversalResolver {
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    /// No resolver for the name or any ancestor (viem reads it as "no name").
    error ResolverNotFound(bytes name);
    /// The resolver has no ENSIP-10 `resolve` and the name has no resolver of its own.
    error ResolverNotContract(bytes name, address resolver);
    /// The resolver (or the gateway) failed; `errorData` is its revert.
    error ResolverError(bytes errorData);
    /// The gateway could not be reached or refused.
    error HttpError(uint16 status, string message);

    IENS public immutable registry;

    constructor(IENS registry_) {
        registry = registry_;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7;
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        (address resolver, bool exact) = findResolver(name);
        if (resolver == address(0)) revert ResolverNotFound(name);
        bool extended = supportsExtended(resolver);
        if (!extended && !exact) revert ResolverNotContract(name, resolver);
        bytes memory call = extended ? abi.encodeCall(IExtendedResolver.resolve, (name, data)) : data;
        (bool ok, bytes memory ret) = resolver.staticcall(call);
        if (ok) return (extended ? abi.decode(ret, (bytes)) : ret, resolver);
        if (ret.length < 4 || bytes4(ret) != OffchainLookup.selector) revert ResolverError(ret);
        (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) =
            abi.decode(withoutSelector(ret), (address, string[], bytes, bytes4, bytes));
        if (sender != resolver) revert ResolverError(ret);
        IBatchGateway.Request[] memory requests = new IBatchGateway.Request[](1);
        requests[0] = IBatchGateway.Request(sender, urls, callData);
        revert OffchainLookup(
            address(this),
            gateways,
            abi.encodeCall(IBatchGateway.query, (requests)),
            this.resolveCallback.selector,
            abi.encode(resolver, callback, extraData, extended)
        );
    }

    /// The batch gateway's answer, given to the resolver's callback.
    function resolveCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (bytes memory, address)
    {
        (address resolver, bytes4 callback, bytes memory innerExtraData, bool extended) =
            abi.decode(extraData, (address, bytes4, bytes, bool));
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert ResolverError(response);
        if (failures[0]) revert ResolverError(responses[0]);
        (bool ok, bytes memory ret) =
            resolver.staticcall(abi.encodeWithSelector(callback, responses[0], innerExtraData));
        if (!ok) revert ResolverError(ret);
        return (extended ? abi.decode(ret, (bytes)) : ret, resolver);
    }

    /// The resolver of `name` or of its nearest ancestor; `exact` when it is the name's own.
    function findResolver(bytes calldata name) public view returns (address resolver, bool exact) {
        bytes32[] memory nodes = new bytes32[](128);
        uint256 count = 0;
        uint256 at = 0;
        // Label offsets, then namehashes from the right.
        uint256[] memory starts = new uint256[](128);
        while (true) {
            if (at >= name.length) revert ResolverNotFound(name);
            uint256 len = uint8(name[at]);
            if (len == 0) break;
            if (count == 128) revert ResolverNotFound(name);
            starts[count++] = at;
            at += 1 + len;
        }
        bytes32 node = bytes32(0);
        for (uint256 i = count; i > 0; i--) {
            uint256 start = starts[i - 1];
            uint256 len = uint8(name[start]);
            if (start + 1 + len > name.length) revert ResolverNotFound(name);
            node = keccak256(abi.encodePacked(node, keccak256(name[start + 1:start + 1 + len])));
            nodes[i - 1] = node;
        }
        for (uint256 i = 0; i < count; i++) {
            resolver = registry.resolver(nodes[i]);
            if (resolver != address(0)) return (resolver, i == 0);
        }
        return (address(0), false);
    }

    function supportsExtended(address resolver) internal view returns (bool) {
        (bool ok, bytes memory ret) =
            resolver.staticcall{gas: 30000}(abi.encodeWithSelector(0x01ffc9a7, bytes4(0x9061b923)));
        return ok && ret.length >= 32 && abi.decode(ret, (bool));
    }

    function withoutSelector(bytes memory data) internal pure returns (bytes memory out) {
        out = new bytes(data.length - 4);
        for (uint256 i = 0; i < out.length; i++) {
            out[i] = data[i + 4];
        }
    }
}
