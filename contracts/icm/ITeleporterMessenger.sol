// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

// The interface of ICM's TeleporterMessenger v1.0.0, as applications and icm-relayer see it. The
// struct layouts, event signatures and function signatures are the wire contract: their ABI types
// and order must not change, or message IDs, topics and selectors stop matching the real messenger.

/// Proof that a message was delivered, carried back to its source inside a later message.
struct TeleporterMessageReceipt {
    uint256 receivedMessageNonce;
    address relayerRewardAddress;
}

/// A fee in an ERC-20, held by the messenger until the delivery's receipt comes back.
struct TeleporterFeeInfo {
    address feeTokenAddress;
    uint256 amount;
}

/// What an application passes to sendCrossChainMessage.
struct TeleporterMessageInput {
    bytes32 destinationBlockchainID;
    address destinationAddress;
    TeleporterFeeInfo feeInfo;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    bytes message;
}

/// What travels in the warp message: abi.encode(TeleporterMessage) is the AddressedCall's payload.
struct TeleporterMessage {
    uint256 messageNonce;
    address originSenderAddress;
    bytes32 destinationBlockchainID;
    address destinationAddress;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    TeleporterMessageReceipt[] receipts;
    bytes message;
}

interface ITeleporterMessenger {
    event BlockchainIDInitialized(bytes32 indexed blockchainID);

    event SendCrossChainMessage(
        bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo
    );

    event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);

    event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message);

    event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);

    event ReceiveCrossChainMessage(
        bytes32 indexed messageID,
        bytes32 indexed sourceBlockchainID,
        address indexed deliverer,
        address rewardRedeemer,
        TeleporterMessage message
    );

    event ReceiptReceived(
        bytes32 indexed messageID,
        bytes32 indexed destinationBlockchainID,
        address indexed relayerRewardAddress,
        TeleporterFeeInfo feeInfo
    );

    event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount);

    function sendCrossChainMessage(TeleporterMessageInput calldata messageInput) external returns (bytes32);

    function retrySendCrossChainMessage(TeleporterMessage calldata message) external;

    function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount) external;

    function sendSpecifiedReceipts(
        bytes32 sourceBlockchainID,
        bytes32[] calldata messageIDs,
        TeleporterFeeInfo calldata feeInfo,
        address[] calldata allowedRelayerAddresses
    ) external returns (bytes32);

    function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress) external;

    function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage calldata message) external;

    function redeemRelayerRewards(address feeTokenAddress) external;

    function getMessageHash(bytes32 messageID) external view returns (bytes32);

    function messageReceived(bytes32 messageID) external view returns (bool);

    function getRelayerRewardAddress(bytes32 messageID) external view returns (address);

    function checkRelayerRewardAmount(address relayer, address feeTokenAddress) external view returns (uint256);

    function getFeeInfo(bytes32 messageID) external view returns (address, uint256);

    function getNextMessageID(bytes32 destinationBlockchainID) external view returns (bytes32);

    function getReceiptQueueSize(bytes32 sourceBlockchainID) external view returns (uint256);

    function getReceiptAtIndex(bytes32 sourceBlockchainID, uint256 index) external view returns (TeleporterMessageReceipt memory);
}
