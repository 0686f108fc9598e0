// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

// The emulator's own ICM messenger: the behaviour of TeleporterMessenger v1.0.0, written from the
// description in docs/research/icm.md (not from icm-contracts' sources, which are under another
// license). It is placed at 0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf without running a
// constructor, so everything a constructor would set lives in storage that placement writes
// (slots 0 and 1 = 1), and the chain's ID is read from the warp precompile on first use.

import {
    ITeleporterMessenger,
    TeleporterFeeInfo,
    TeleporterMessage,
    TeleporterMessageInput,
    TeleporterMessageReceipt
} from "./ITeleporterMessenger.sol";
import {ITeleporterReceiver} from "./ITeleporterReceiver.sol";
import {IWarpMessenger, WarpMessage} from "./IWarpMessenger.sol";

/// A FIFO of receipts owed to one other chain: entries live at data[first .. last).
struct ReceiptQueue {
    uint256 first;
    uint256 last;
    mapping(uint256 => TeleporterMessageReceipt) data;
}

/// What is kept of a sent message until its receipt comes back: the hash to check retries against,
/// and the fee to pay the relayer that delivered it.
struct SentMessageInfo {
    bytes32 messageHash;
    TeleporterFeeInfo feeInfo;
}

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
}

contract TeleporterMessenger is ITeleporterMessenger {
    // The storage layout is the real messenger's, slot for slot (docs/research/icm.md §2.2), so that
    // the state a placement writes (slots 0 and 1) means the same for this code and for a real
    // runtime a user supplies instead.

    /// Slot 0: the send-side reentrancy flag; 1 = free, 2 = entered. Must be 1 before first use.
    uint256 private _sendEntered;
    /// Slot 1: the receive-side reentrancy flag, likewise.
    uint256 private _receiveEntered;

    /// Slot 2: this chain's blockchain ID, 0 until initializeBlockchainID runs.
    bytes32 public blockchainID;
    /// Slot 3: the nonce of the last message sent, to any destination.
    uint256 public messageNonce;
    /// Slot 4: receipts owed to each source chain, sent back on the next messages to it.
    mapping(bytes32 sourceBlockchainID => ReceiptQueue) public receiptQueues;
    /// Slot 5: messages sent whose receipt has not come back.
    mapping(bytes32 messageID => SentMessageInfo) public sentMessageInfo;
    /// Slot 6: hashes of received messages whose execution failed, for retryMessageExecution.
    mapping(bytes32 messageID => bytes32 messageHash) public receivedFailedMessageHashes;
    /// Slot 7: the nonce of each received message; non-zero means received.
    mapping(bytes32 messageID => uint256 nonce) private _receivedMessageNonces;
    /// Slot 8: who is to be paid for each delivery.
    mapping(bytes32 messageID => address rewardAddress) private _relayerRewardAddresses;
    /// Slot 9: rewards earned and not redeemed, by reward address then fee token.
    mapping(address relayer => mapping(address feeToken => uint256 amount)) private _relayerRewardAmounts;

    IWarpMessenger public constant WARP_MESSENGER = IWarpMessenger(0x0200000000000000000000000000000000000005);

    /// At most this many queued receipts ride along on one message.
    uint256 private constant _MAXIMUM_RECEIPT_COUNT = 5;

    uint256 private constant _NOT_ENTERED = 1;
    uint256 private constant _ENTERED = 2;

    // Two independent guards: a receiver executing inside receiveCrossChainMessage may still send
    // (ping-pong), but nothing may re-enter the same side.

    modifier senderNonReentrant() {
        require(_sendEntered == _NOT_ENTERED, "ReentrancyGuards: sender reentrancy");
        _sendEntered = _ENTERED;
        _;
        _sendEntered = _NOT_ENTERED;
    }

    modifier receiverNonReentrant() {
        require(_receiveEntered == _NOT_ENTERED, "ReentrancyGuards: receiver reentrancy");
        _receiveEntered = _ENTERED;
        _;
        _receiveEntered = _NOT_ENTERED;
    }

    // ---------------------------------------------------------------- sending

    function sendCrossChainMessage(TeleporterMessageInput calldata messageInput) external senderNonReentrant returns (bytes32) {
        // Receipts owed to the destination go first, oldest first, so they are paid back in order.
        ReceiptQueue storage queue = receiptQueues[messageInput.destinationBlockchainID];
        uint256 count = queue.last - queue.first;
        if (count > _MAXIMUM_RECEIPT_COUNT) count = _MAXIMUM_RECEIPT_COUNT;
        TeleporterMessageReceipt[] memory receipts = new TeleporterMessageReceipt[](count);
        for (uint256 i = 0; i < count; ++i) {
            receipts[i] = _dequeue(queue);
        }
        return _send(
            messageInput.destinationBlockchainID,
            messageInput.destinationAddress,
            messageInput.feeInfo,
            messageInput.requiredGasLimit,
            messageInput.allowedRelayerAddresses,
            messageInput.message,
            receipts
        );
    }

    function retrySendCrossChainMessage(TeleporterMessage calldata message) external senderNonReentrant {
        // Re-emits a message still awaiting its receipt, e.g. when the first warp message was lost.
        // Nothing changes: the destination refuses a second delivery itself.
        bytes memory encoded = abi.encode(message);
        bytes32 messageID = calculateMessageID(blockchainID, message.destinationBlockchainID, message.messageNonce);
        SentMessageInfo memory info = sentMessageInfo[messageID];
        require(info.messageHash != bytes32(0), "TeleporterMessenger: message not found");
        require(info.messageHash == keccak256(encoded), "TeleporterMessenger: invalid message hash");
        emit SendCrossChainMessage(messageID, message.destinationBlockchainID, message, info.feeInfo);
        WARP_MESSENGER.sendWarpMessage(encoded);
    }

    function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount)
        external
        senderNonReentrant
        receiverNonReentrant
    {
        require(additionalFeeAmount > 0, "TeleporterMessenger: zero additional fee amount");
        require(feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
        // Only a message whose receipt has not come back can still pay more.
        SentMessageInfo storage info = sentMessageInfo[messageID];
        require(info.messageHash != bytes32(0), "TeleporterMessenger: message not found");
        require(info.feeInfo.feeTokenAddress == feeTokenAddress, "TeleporterMessenger: invalid fee asset contract address");
        info.feeInfo.amount += _pullFee(feeTokenAddress, additionalFeeAmount);
        emit AddFeeAmount(messageID, info.feeInfo);
    }

    function sendSpecifiedReceipts(
        bytes32 sourceBlockchainID,
        bytes32[] calldata messageIDs,
        TeleporterFeeInfo calldata feeInfo,
        address[] calldata allowedRelayerAddresses
    ) external senderNonReentrant returns (bytes32) {
        // Receipts for chosen messages, outside the queue (which stays as it is): a way to get paid
        // when no traffic flows back. Duplicates are harmless, the source pays each message once.
        TeleporterMessageReceipt[] memory receipts = new TeleporterMessageReceipt[](messageIDs.length);
        bytes32 here = blockchainID;
        for (uint256 i = 0; i < messageIDs.length; ++i) {
            bytes32 messageID = messageIDs[i];
            uint256 nonce = _receivedMessageNonces[messageID];
            require(nonce != 0, "TeleporterMessenger: receipt not found");
            require(
                messageID == calculateMessageID(sourceBlockchainID, here, nonce), "TeleporterMessenger: message ID not from source blockchain"
            );
            receipts[i] = TeleporterMessageReceipt(nonce, _relayerRewardAddresses[messageID]);
        }
        return _send(sourceBlockchainID, address(0), feeInfo, 0, allowedRelayerAddresses, new bytes(0), receipts);
    }

    // ---------------------------------------------------------------- receiving

    function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress) external receiverNonReentrant {
        // The checks run in the real messenger's order, so the same error wins when several apply.
        (WarpMessage memory warp, bool valid) = WARP_MESSENGER.getVerifiedWarpMessage(messageIndex);
        require(valid, "TeleporterMessenger: invalid warp message");
        // Only a messenger at this same address on the source chain speaks this protocol.
        require(warp.originSenderAddress == address(this), "TeleporterMessenger: invalid origin sender address");
        TeleporterMessage memory message = abi.decode(warp.payload, (TeleporterMessage));

        bytes32 here = initializeBlockchainID();
        require(message.destinationBlockchainID == here, "TeleporterMessenger: invalid destination chain ID");
        bytes32 messageID = calculateMessageID(warp.sourceChainID, here, message.messageNonce);
        require(_receivedMessageNonces[messageID] == 0, "TeleporterMessenger: message already received");
        require(_isAllowedRelayer(message.allowedRelayerAddresses, msg.sender), "TeleporterMessenger: unauthorized relayer");

        // Nonce 0 is never sent (the first is 1), and would read as "not received".
        _receivedMessageNonces[messageID] = message.messageNonce;
        require(message.messageNonce != 0, "TeleporterMessenger: zero message nonce");
        if (relayerRewardAddress != address(0)) {
            _relayerRewardAddresses[messageID] = relayerRewardAddress;
        }

        // Receipts for our own earlier messages to the source: pay their relayers.
        for (uint256 i = 0; i < message.receipts.length; ++i) {
            _markReceipt(here, warp.sourceChainID, message.receipts[i]);
        }

        // This delivery's receipt, owed to the source on our next message to it.
        _enqueue(receiptQueues[warp.sourceChainID], TeleporterMessageReceipt(message.messageNonce, relayerRewardAddress));

        emit ReceiveCrossChainMessage(messageID, warp.sourceChainID, msg.sender, relayerRewardAddress, message);

        // A receipt-only message (empty payload) has nothing to execute.
        if (message.message.length > 0) {
            _execute(messageID, warp.sourceChainID, message);
        }
    }

    function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage calldata message) external receiverNonReentrant {
        bytes32 messageID = calculateMessageID(sourceBlockchainID, blockchainID, message.messageNonce);
        bytes32 failedHash = receivedFailedMessageHashes[messageID];
        require(failedHash != bytes32(0), "TeleporterMessenger: message not found");
        require(failedHash == keccak256(abi.encode(message)), "TeleporterMessenger: invalid message hash");
        require(message.destinationAddress.code.length > 0, "TeleporterMessenger: destination address has no code");

        // Marked done before the call, so the receiver cannot retry itself; a failing call reverts
        // all of this and leaves the message retryable.
        emit MessageExecuted(messageID, sourceBlockchainID);
        delete receivedFailedMessageHashes[messageID];

        // Anyone may retry, with whatever gas they bring: no requiredGasLimit cap here.
        (bool ok,) = message.destinationAddress.call(
            abi.encodeCall(ITeleporterReceiver.receiveTeleporterMessage, (sourceBlockchainID, message.originSenderAddress, message.message))
        );
        require(ok, "TeleporterMessenger: retry execution failed");
    }

    // ---------------------------------------------------------------- rewards

    function redeemRelayerRewards(address feeTokenAddress) external {
        uint256 amount = _relayerRewardAmounts[msg.sender][feeTokenAddress];
        require(amount != 0, "TeleporterMessenger: no reward to redeem");
        // Zeroed before the transfer, so a token calling back finds nothing left.
        _relayerRewardAmounts[msg.sender][feeTokenAddress] = 0;
        emit RelayerRewardsRedeemed(msg.sender, feeTokenAddress, amount);
        _callToken(feeTokenAddress, abi.encodeWithSignature("transfer(address,uint256)", msg.sender, amount));
    }

    // ---------------------------------------------------------------- views

    /// The ID of a message: it includes this contract's address, so IDs agree across chains only
    /// because every chain's messenger sits at the same address.
    function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce) public view returns (bytes32) {
        return keccak256(abi.encode(address(this), sourceBlockchainID, destinationBlockchainID, nonce));
    }

    function getNextMessageID(bytes32 destinationBlockchainID) external view returns (bytes32) {
        bytes32 here = blockchainID;
        require(here != bytes32(0), "TeleporterMessenger: zero blockchain ID");
        return calculateMessageID(here, destinationBlockchainID, messageNonce + 1);
    }

    function getMessageHash(bytes32 messageID) external view returns (bytes32) {
        return sentMessageInfo[messageID].messageHash;
    }

    function messageReceived(bytes32 messageID) external view returns (bool) {
        return _receivedMessageNonces[messageID] != 0;
    }

    function getRelayerRewardAddress(bytes32 messageID) external view returns (address) {
        require(_receivedMessageNonces[messageID] != 0, "TeleporterMessenger: message not received");
        return _relayerRewardAddresses[messageID];
    }

    function checkRelayerRewardAmount(address relayer, address feeTokenAddress) external view returns (uint256) {
        return _relayerRewardAmounts[relayer][feeTokenAddress];
    }

    function getFeeInfo(bytes32 messageID) external view returns (address, uint256) {
        TeleporterFeeInfo memory fee = sentMessageInfo[messageID].feeInfo;
        return (fee.feeTokenAddress, fee.amount);
    }

    function getReceiptQueueSize(bytes32 sourceBlockchainID) external view returns (uint256) {
        ReceiptQueue storage queue = receiptQueues[sourceBlockchainID];
        return queue.last - queue.first;
    }

    function getReceiptAtIndex(bytes32 sourceBlockchainID, uint256 index) external view returns (TeleporterMessageReceipt memory) {
        ReceiptQueue storage queue = receiptQueues[sourceBlockchainID];
        require(index < queue.last - queue.first, "ReceiptQueue: index out of bounds");
        return queue.data[queue.first + index];
    }

    // ---------------------------------------------------------------- the chain's ID

    /// Reads this chain's ID from the warp precompile the first time it is needed: the contract is
    /// placed without a constructor, and the same code serves every chain.
    function initializeBlockchainID() public returns (bytes32) {
        bytes32 here = blockchainID;
        if (here == bytes32(0)) {
            here = WARP_MESSENGER.getBlockchainID();
            require(here != bytes32(0), "TeleporterMessenger: zero blockchain ID");
            blockchainID = here;
            emit BlockchainIDInitialized(here);
        }
        return here;
    }

    // ---------------------------------------------------------------- internals

    /// The path every outgoing message takes, from sendCrossChainMessage and sendSpecifiedReceipts.
    function _send(
        bytes32 destinationBlockchainID,
        address destinationAddress,
        TeleporterFeeInfo calldata feeInfo,
        uint256 requiredGasLimit,
        address[] calldata allowedRelayerAddresses,
        bytes memory payload,
        TeleporterMessageReceipt[] memory receipts
    ) private returns (bytes32) {
        bytes32 here = initializeBlockchainID();
        uint256 nonce = ++messageNonce;
        bytes32 messageID = calculateMessageID(here, destinationBlockchainID, nonce);

        TeleporterMessage memory message = TeleporterMessage({
            messageNonce: nonce,
            originSenderAddress: msg.sender,
            destinationBlockchainID: destinationBlockchainID,
            destinationAddress: destinationAddress,
            requiredGasLimit: requiredGasLimit,
            allowedRelayerAddresses: allowedRelayerAddresses,
            receipts: receipts,
            message: payload
        });
        bytes memory encoded = abi.encode(message);

        // The fee recorded is what actually arrived, so a token that takes a cut on transfer cannot
        // make the messenger promise more than it holds.
        TeleporterFeeInfo memory adjusted = TeleporterFeeInfo(feeInfo.feeTokenAddress, 0);
        if (feeInfo.amount > 0) {
            require(feeInfo.feeTokenAddress != address(0), "TeleporterMessenger: zero fee asset contract address");
            adjusted.amount = _pullFee(feeInfo.feeTokenAddress, feeInfo.amount);
        }

        sentMessageInfo[messageID] = SentMessageInfo(keccak256(encoded), adjusted);
        emit SendCrossChainMessage(messageID, destinationBlockchainID, message, adjusted);
        WARP_MESSENGER.sendWarpMessage(encoded);
        return messageID;
    }

    /// Runs a delivered message in its receiver with exactly the gas its sender asked for. A failure
    /// is recorded for a later retry; the delivery itself stands (and earns its relayer the fee).
    function _execute(bytes32 messageID, bytes32 sourceBlockchainID, TeleporterMessage memory message) private {
        // Too little gas is the relayer's fault, not the receiver's: revert, so it can try again.
        require(gasleft() >= message.requiredGasLimit, "TeleporterMessenger: insufficient gas");

        bool ok = false;
        if (message.destinationAddress.code.length > 0) {
            bytes memory data = abi.encodeCall(
                ITeleporterReceiver.receiveTeleporterMessage, (sourceBlockchainID, message.originSenderAddress, message.message)
            );
            address target = message.destinationAddress;
            uint256 gasLimit = message.requiredGasLimit;
            // No return data is copied: a receiver cannot make us pay for a huge returned buffer.
            assembly {
                ok := call(gasLimit, target, 0, add(data, 0x20), mload(data), 0, 0)
            }
        }
        if (!ok) {
            receivedFailedMessageHashes[messageID] = keccak256(abi.encode(message));
            emit MessageExecutionFailed(messageID, sourceBlockchainID, message);
            return;
        }
        emit MessageExecuted(messageID, sourceBlockchainID);
    }

    /// A receipt for one of our messages came back: pay its relayer, once.
    function _markReceipt(bytes32 here, bytes32 destinationBlockchainID, TeleporterMessageReceipt memory receipt) private {
        bytes32 messageID = calculateMessageID(here, destinationBlockchainID, receipt.receivedMessageNonce);
        SentMessageInfo memory info = sentMessageInfo[messageID];
        // Already paid, or a receipt for something never sent: nothing to do, and no error, since
        // receipts may legitimately arrive twice (the queue and sendSpecifiedReceipts).
        if (info.messageHash == bytes32(0)) return;
        delete sentMessageInfo[messageID];
        _relayerRewardAmounts[receipt.relayerRewardAddress][info.feeInfo.feeTokenAddress] += info.feeInfo.amount;
        emit ReceiptReceived(messageID, destinationBlockchainID, receipt.relayerRewardAddress, info.feeInfo);
    }

    function _isAllowedRelayer(address[] memory allowed, address relayer) private pure returns (bool) {
        if (allowed.length == 0) return true;
        for (uint256 i = 0; i < allowed.length; ++i) {
            if (allowed[i] == relayer) return true;
        }
        return false;
    }

    function _enqueue(ReceiptQueue storage queue, TeleporterMessageReceipt memory receipt) private {
        queue.data[queue.last++] = receipt;
    }

    function _dequeue(ReceiptQueue storage queue) private returns (TeleporterMessageReceipt memory receipt) {
        uint256 first = queue.first;
        require(queue.last != first, "ReceiptQueue: empty queue");
        receipt = queue.data[first];
        delete queue.data[first];
        queue.first = first + 1;
    }

    /// Takes `amount` of `token` from the caller and returns how much this contract's balance grew.
    function _pullFee(address token, uint256 amount) private returns (uint256) {
        uint256 before = IERC20Balance(token).balanceOf(address(this));
        _callToken(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amount));
        uint256 after_ = IERC20Balance(token).balanceOf(address(this));
        require(after_ > before, "SafeERC20TransferFrom: balance not increased");
        return after_ - before;
    }

    /// An ERC-20 call that accepts tokens returning nothing, and fails with OpenZeppelin 4.8's texts.
    function _callToken(address token, bytes memory data) private {
        (bool ok, bytes memory returned) = token.call(data);
        if (!ok) {
            // Pass the token's own reason through, as a library call would.
            if (returned.length > 0) {
                assembly {
                    revert(add(returned, 0x20), mload(returned))
                }
            }
            revert("SafeERC20: low-level call failed");
        }
        if (returned.length == 0) {
            require(token.code.length > 0, "Address: call to non-contract");
        } else {
            require(abi.decode(returned, (bool)), "SafeERC20: ERC20 operation did not succeed");
        }
    }
}
